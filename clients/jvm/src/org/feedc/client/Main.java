package org.feedc.client;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/// The command line, as `python3 clients/python/feedc_client.py pull …` and `feedc pull …`:
///
///     java -cp .build/jvm/feedc-jvm.jar:/usr/share/java/sqlite-jdbc.jar org.feedc.client.Main \
///         pull MANIFEST_URL --db PATH [--public-key KEY] [--timeout S (30)]
///
/// Prints what it did (one line, the Python client's words); exit status 0 when updated or up to
/// date, 2 when it failed, with one line on standard error (and the database unchanged), or on a
/// usage error. `… Main digest DB` prints the content digest of a bundle database (as
/// `feedc inspect` computes it), for the tests and for checking a port. `… Main live BUNDLE --feed
/// FILE …` answers from GTFS-Realtime messages over a bundle (`org.feedc.client.live.LiveCommand`,
/// docs/live.md; it needs protobuf.jar on the class path, the update does not). `… Main batch`
/// runs many `live` and `digest` commands read from standard input in one JVM (`BatchCommand`).
public final class Main {
    private static final String USAGE = "usage: feedc-jvm pull [-h] --db DB [--public-key PUBLIC_KEY] [--timeout TIMEOUT] manifest";
    private static volatile boolean finished;

    private Main() {
    }

    public static void main(String[] args) {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        int status = run(args, out, err);
        finished = true;
        out.flush();
        err.flush();
        System.exit(status);
    }

    private static int usage(PrintStream err, String message) {
        err.println(USAGE);
        err.println("feedc-jvm: error: " + message);
        return 2;
    }

    /// Runs the command `args`; its exit status.
    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 2 && args[0].equals("digest")) {
            return digest(args[1], out, err);
        }
        if (args.length == 1 && args[0].equals("batch")) {
            return BatchCommand.run(System.in, out);
        }
        if (args.length > 0 && args[0].equals("live")) {
            // Its classes (and protobuf, which only they need) are loaded only here.
            return org.feedc.client.live.LiveCommand.run(java.util.Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (args.length == 0 || !args[0].equals("pull")) {
            if (args.length > 0 && (args[0].equals("-h") || args[0].equals("--help"))) {
                out.println("usage: feedc-jvm {pull,digest,live,batch} ...\n\nKeeps a local feedc bundle database up to date.\n\n"
                        + "  pull MANIFEST_URL --db PATH [--public-key KEY] [--timeout S]\n  digest PATH\n"
                        + "  live BUNDLE --feed FILE --source ID (--stop ID | --vehicles | --alerts | --report) [--json]\n"
                        + "  batch   (live and digest commands read from standard input, a JSON array of words a line;\n"
                        + "          each answered by a line {\"status\": N, \"out\": TEXT, \"err\": TEXT})");
                return 0;
            }
            return usage(err, args.length == 0 ? "the following arguments are required: command"
                    : "argument command: invalid choice: " + PyText.repr(args[0]) + " (choose from 'pull')");
        }
        String manifest = null;
        String db = null;
        String publicKey = null;
        double timeout = FeedClient.DEFAULT_TIMEOUT;
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            String name = arg.startsWith("--") && arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            if (name.equals("-h") || name.equals("--help")) {
                out.println(USAGE + "\n\npositional arguments:\n  manifest    URL of the bundle's manifest.json\n\noptions:\n"
                        + "  --db DB     the local database file (created on first pull)\n"
                        + "  --public-key PUBLIC_KEY  Ed25519 public key (base64): refuse a manifest without a valid signature\n"
                        + "  --timeout TIMEOUT  idle timeout of a request in seconds, and the base of its deadline (default 30)");
                return 0;
            }
            if (name.equals("--db") || name.equals("--public-key") || name.equals("--timeout")) {
                String value;
                if (!name.equals(arg)) {
                    value = arg.substring(name.length() + 1);
                } else if (i + 1 < args.length) {
                    value = args[++i];
                } else {
                    return usage(err, "argument " + name + ": expected one argument");
                }
                if (name.equals("--db")) {
                    db = value;
                } else if (name.equals("--public-key")) {
                    publicKey = value;
                } else {
                    try {
                        timeout = Double.parseDouble(value.strip());
                    } catch (NumberFormatException error) {
                        return usage(err, "argument --timeout: invalid float value: " + PyText.repr(value));
                    }
                }
            } else if (arg.startsWith("-") && arg.length() > 1) {
                return usage(err, "unrecognized arguments: " + arg);
            } else if (manifest == null) {
                manifest = arg;
            } else {
                return usage(err, "unrecognized arguments: " + arg);
            }
        }
        if (manifest == null || db == null) {
            return usage(err, "the following arguments are required: " + (manifest == null ? "manifest" : "--db"));
        }
        return pull(manifest, db, publicKey, timeout, out, err);
    }

    /// The content digest of the database at `path`, opened read-only.
    private static int digest(String path, PrintStream out, PrintStream err) {
        if (!new java.io.File(path).isFile()) {
            err.println("feedc-jvm: no database at " + path);
            return 2;
        }
        try (SqlDatabase db = JdbcSqlDatabase.open(path, true)) {
            out.println(ContentDigest.compute(db));
            return 0;
        } catch (java.sql.SQLException error) {
            err.println("feedc-jvm: " + path + ": " + PyText.oneLine(String.valueOf(error.getMessage())));
            return 2;
        }
    }

    private static int pull(String manifest, String db, String publicKey, double timeout, PrintStream out, PrintStream err) {
        FeedClient client = null;
        // Ctrl-C (or a TERM) mid-update: the database is as it was (a delta rolls back when its
        // transaction is never committed; a full bundle is renamed in only once complete).
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (!finished) {
                err.println("feedc-jvm: the update was cancelled; " + db + " is unchanged");
                err.flush();
                Runtime.getRuntime().halt(2);
            }
        }));
        try {
            client = new FeedClient(manifest, db, publicKey, timeout, JdbcSqlDatabase.DRIVER);
            UpdateResult result = client.update();
            finished = true;
            out.println(result);
            return 0;
        } catch (UpdateException error) {
            finished = true;
            // Why a listed delta was not used, when the full bundle failed too (as `feedc pull`).
            String delta = client != null && client.deltaFailure() != null
                    ? " (the delta was not used: " + client.deltaFailure() + ")" : "";
            err.println("feedc-jvm: " + PyText.oneLine(error.getMessage() + delta) + "; " + db + " is unchanged");
            return 2;
        } catch (Exception | Error error) {  // one readable line, never a stack trace
            finished = true;
            err.println("feedc-jvm: " + error.getClass().getSimpleName() + ": " + PyText.oneLine(String.valueOf(error.getMessage()))
                    + "; " + db + " is unchanged");
            return 2;
        }
    }
}
