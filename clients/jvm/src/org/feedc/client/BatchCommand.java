package org.feedc.client;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.List;

/// `feedc-jvm batch`: many `live` and `digest` commands in one JVM, for scripts and tests that
/// run hundreds of them (a JVM's start costs about half a second of CPU, the answer itself a few
/// milliseconds).
///
/// Each line of standard input is one command, a JSON array of its words
/// (`["live", "BUNDLE", "--feed", "FILE", "--source", "ID", "--stop", "S1", "--json"]`); each is
/// answered, in order, by one line of JSON on standard output, `{"status": N, "out": "…",
/// "err": "…"}`: the exit status and the text the command would have written alone. A line that
/// is not such an array, names another command, or is longer than 1 MiB is answered
/// `{"status": 2, …}` with the reason in `err`, and the next line is read. Exit 0 at the end of
/// the input.
final class BatchCommand {
    static final int MAX_LINE = 1 << 20;

    private BatchCommand() {
    }

    static int run(InputStream input, PrintStream out) {
        Reader reader = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8));
        StringBuilder line = new StringBuilder();
        boolean tooLong = false;
        try {
            while (true) {
                int c = reader.read();
                if (c == -1 || c == '\n') {
                    if (tooLong) {
                        answer(out, 2, "", "feedc-jvm: batch: a line longer than " + MAX_LINE + " characters\n");
                    } else if (!line.toString().isBlank()) {
                        one(line.toString(), out);
                    }
                    line.setLength(0);
                    tooLong = false;
                    if (c == -1) {
                        return 0;
                    }
                } else if (line.length() >= MAX_LINE) {
                    tooLong = true;
                } else {
                    line.append((char) c);
                }
            }
        } catch (IOException error) {
            answer(out, 2, "", "feedc-jvm: batch: standard input: " + PyText.oneLine(String.valueOf(error.getMessage())) + "\n");
            return 2;
        }
    }

    private static void one(String line, PrintStream out) {
        String[] words;
        try {
            Object parsed = Json.parse(line);
            if (!(parsed instanceof List) || ((List<?>) parsed).isEmpty()) {
                throw new IllegalArgumentException("not a JSON array of words");
            }
            List<?> list = (List<?>) parsed;
            words = new String[list.size()];
            for (int i = 0; i < words.length; i++) {
                if (!(list.get(i) instanceof String)) {
                    throw new IllegalArgumentException("word " + i + " is not a string");
                }
                words[i] = (String) list.get(i);
            }
        } catch (IllegalArgumentException error) {
            answer(out, 2, "", "feedc-jvm: batch: " + PyText.oneLine(String.valueOf(error.getMessage())) + "\n");
            return;
        }
        if (!words[0].equals("live") && !words[0].equals("digest")) {
            answer(out, 2, "", "feedc-jvm: batch: runs live and digest commands, not " + PyText.repr(words[0]) + "\n");
            return;
        }
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        ByteArrayOutputStream complained = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(said, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(complained, true, StandardCharsets.UTF_8)) {
            try {
                status = Main.run(words, o, e);
            } catch (RuntimeException | Error error) {  // one readable line, never a stack trace
                e.println("feedc-jvm: " + error.getClass().getSimpleName() + ": " + PyText.oneLine(String.valueOf(error.getMessage())));
                status = 2;
            }
        }
        answer(out, status, said.toString(StandardCharsets.UTF_8), complained.toString(StandardCharsets.UTF_8));
    }

    private static void answer(PrintStream out, int status, String said, String complained) {
        out.println("{\"status\": " + status + ", \"out\": " + org.feedc.client.live.LiveJson.quote(said) + ", \"err\": "
                + org.feedc.client.live.LiveJson.quote(complained) + "}");
        out.flush();
    }
}
