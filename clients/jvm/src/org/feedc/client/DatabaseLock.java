package org.feedc.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/// The exclusive lock on `<database>.lock` held for a whole update: one update of a database at
/// a time, across processes (docs/update-protocol.md, step 0). The lock file is never deleted.
///
/// The Swift and Python clients take it with `flock(2)`, which Java cannot call: its
/// `FileChannel.lock` takes a POSIX record lock (`fcntl`), which Linux keeps apart from `flock`
/// locks, so the two would not exclude each other. Where util-linux's `flock` command is
/// installed (any Linux but Android), the lock is therefore held by a child process,
/// `flock --exclusive --nonblock DB.lock sh -c 'echo locked; exec cat'`, tried every 0.1 s: it
/// answers once it holds the lock and keeps it until this process closes its standard input (or
/// dies, which closes it too). Elsewhere (Android, where one app's updates run in one process) it is a
/// `FileChannel` lock, polled every 0.1 s. Either way, after waiting `timeout` seconds:
/// "another update of DB is under way".
public final class DatabaseLock implements AutoCloseable {
    private static final String[] FLOCK = {"/usr/bin/flock", "/bin/flock"};

    private final Process holder;
    private final FileChannel channel;
    private final FileLock lock;

    private DatabaseLock(Process holder, FileChannel channel, FileLock lock) {
        this.holder = holder;
        this.channel = channel;
        this.lock = lock;
    }

    /// Takes the lock of `database`, waiting at most `timeout` seconds for another update.
    public static DatabaseLock acquire(String database, double timeout) throws UpdateException {
        Path path = Paths.get(database + ".lock");
        FileChannel channel;
        try {
            channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException error) {
            throw Limits.localError(error, path.toString());
        }
        String flock = null;
        for (String candidate : FLOCK) {
            if (Files.isExecutable(Paths.get(candidate))) {
                flock = candidate;
                break;
            }
        }
        try {
            if (flock != null) {
                channel.close();
                return new DatabaseLock(hold(flock, path, database, timeout), null, null);
            }
            return new DatabaseLock(null, channel, poll(channel, database, timeout));
        } catch (IOException error) {
            close(channel);
            throw Limits.localError(error, path.toString(), "lock");
        } catch (UpdateException error) {
            close(channel);
            throw error;
        }
    }

    private static void close(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // not held
        }
    }

    /// The `flock` child holding the lock, tried every 0.1 s with `--nonblock` until `timeout`:
    /// `flock --wait` times out by SIGALRM, which never comes where the parent process left
    /// that signal blocked (as a test runner may), so the waiting is done here.
    private static Process hold(String flock, Path path, String database, double timeout) throws IOException, UpdateException {
        long giveUp = System.nanoTime() + (long) (Math.max(0, timeout) * 1e9);
        while (true) {
            Process process = new ProcessBuilder(flock, "--exclusive", "--nonblock", path.toString(), "sh", "-c",
                    "echo locked; exec cat").redirectError(ProcessBuilder.Redirect.DISCARD).start();
            BufferedReader answer = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line = answer.readLine();
            if ("locked".equals(line)) {
                return process;
            }
            process.getOutputStream().close();
            int status;
            try {
                status = process.waitFor();
                if (status == 1 && System.nanoTime() < giveUp) {
                    Thread.sleep(100);
                    continue;
                }
            } catch (InterruptedException error) {
                process.destroy();
                Thread.currentThread().interrupt();
                throw new UpdateException("the update was cancelled");
            }
            if (status == 1) {
                throw new UpdateException("another update of " + database + " is under way");
            }
            throw new IOException("flock exited with status " + status);
        }
    }

    /// A `FileChannel` lock, polled every 0.1 s.
    private static FileLock poll(FileChannel channel, String database, double timeout) throws IOException, UpdateException {
        long giveUp = System.nanoTime() + (long) (timeout * 1e9);
        while (true) {
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException error) {
                lock = null;  // held by another update in this process
            }
            if (lock != null) {
                return lock;
            }
            if (System.nanoTime() >= giveUp) {
                throw new UpdateException("another update of " + database + " is under way");
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException error) {
                Thread.currentThread().interrupt();
                throw new UpdateException("the update was cancelled");
            }
        }
    }

    /// Releases the lock.
    @Override
    public void close() {
        if (holder != null) {
            try {
                holder.getOutputStream().close();
                holder.getInputStream().close();
                if (!holder.waitFor(5, TimeUnit.SECONDS)) {
                    holder.destroyForcibly();
                }
            } catch (IOException error) {
                holder.destroyForcibly();
            } catch (InterruptedException error) {
                holder.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        if (channel != null) {
            try {
                lock.release();
            } catch (IOException ignored) {
                // closing the channel releases it too
            }
            close(channel);
        }
    }
}
