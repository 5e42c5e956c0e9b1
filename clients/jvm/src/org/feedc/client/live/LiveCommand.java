package org.feedc.client.live;

import com.google.transit.realtime.GtfsRealtime.FeedMessage;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.feedc.client.PyText;

/// `feedc-jvm live` (docs/live.md, section 6):
///
///     live BUNDLE --feed FILE [--feed FILE…] --source SOURCE_ID [--at YYYY-MM-DDTHH:MM:SS]
///          [--max-age SECONDS] (--stop ID [--limit N] | --place ID [--limit N] | --trip ID [--date YYYYMMDD]
///          | --vehicles [--route ID] [--direction I] | --alerts [--stop ID] [--route ID] [--lang L] | --report)
///          [--json]
///
/// Each `--feed` is read (`MessageReader`) and applied, in the order given, to a state of its own
/// (`LiveFeed`: an agency's TripUpdates, VehiclePositions and Alerts may come apart; a
/// `DIFFERENTIAL` file does not merge into the one before it). Where several TripUpdates name
/// one run, the newest is taken (`LiveDepartures`). `--at` is local to the bundle's first agency
/// (default now). A stop, place or route the bundle does not have is no error: nothing applies to
/// it; a trip it does not have is `{"trip": null, …}` (as the Python client's `trip_progress`).
/// Exit 0 with an answer, 1 when a message cannot be read (one line: the file, the
/// `LiveException`'s code and what was found), 2 for a usage error (or a bundle or source that is
/// not there).
public final class LiveCommand {
    static final String USAGE = "usage: feedc-jvm live BUNDLE --feed FILE [--feed FILE ...] --source SOURCE_ID"
            + " [--at YYYY-MM-DDTHH:MM:SS] [--max-age SECONDS] (--stop ID [--limit N] | --place ID [--limit N]"
            + " | --trip ID [--date YYYYMMDD] | --vehicles [--route ID] [--direction I]"
            + " | --alerts [--stop ID] [--route ID] [--lang L] | --report) [--json]";
    private static final int DEFAULT_LIMIT = 10;

    private LiveCommand() {
    }

    private static final class Usage extends Exception {
        private static final long serialVersionUID = 1L;

        Usage(String message) {
            super(message);
        }
    }

    private static int usage(PrintStream err, String message) {
        err.println(USAGE);
        err.println("feedc-jvm: error: " + message);
        return 2;
    }

    /// Runs `live` with `args` (the words after `live`); its exit status.
    public static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            Class.forName("com.google.protobuf.CodedInputStream");
        } catch (ClassNotFoundException | LinkageError error) {
            err.println("feedc-jvm: live needs the protobuf runtime on the class path"
                    + " (Debian: libprotobuf-java, /usr/share/java/protobuf.jar)");
            return 2;
        }
        String bundlePath = null;
        List<String> feeds = new ArrayList<>();
        Map<String, String> options = new LinkedHashMap<>();
        List<String> flags = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name = arg.startsWith("--") && arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            switch (name) {
                case "-h":
                case "--help":
                    out.println(USAGE);
                    return 0;
                case "--vehicles":
                case "--alerts":
                case "--report":
                case "--json":
                    flags.add(name);
                    continue;
                case "--feed":
                case "--source":
                case "--at":
                case "--max-age":
                case "--stop":
                case "--limit":
                case "--route":
                case "--direction":
                case "--lang":
                case "--place":
                case "--trip":
                case "--date": {
                    String value;
                    if (!name.equals(arg)) {
                        value = arg.substring(name.length() + 1);
                    } else if (i + 1 < args.length) {
                        value = args[++i];
                    } else {
                        return usage(err, "argument " + name + ": expected one argument");
                    }
                    if (name.equals("--feed")) {
                        feeds.add(value);
                    } else {
                        options.put(name, value);
                    }
                    continue;
                }
                default:
                    if (arg.startsWith("-") && arg.length() > 1) {
                        return usage(err, "unrecognized arguments: " + arg);
                    }
                    if (bundlePath != null) {
                        return usage(err, "unrecognized arguments: " + arg);
                    }
                    bundlePath = arg;
            }
        }
        try {
            return answer(bundlePath, feeds, options, flags, out, err);
        } catch (Usage error) {
            return usage(err, error.getMessage());
        }
    }

    private static long number(Map<String, String> options, String name, long fallback, long least) throws Usage {
        String text = options.get(name);
        if (text == null) {
            return fallback;
        }
        try {
            long value = Long.parseLong(text.strip());
            if (value < least) {
                throw new Usage("argument " + name + ": must be at least " + least);
            }
            return value;
        } catch (NumberFormatException error) {
            throw new Usage("argument " + name + ": invalid int value: " + PyText.repr(text));
        }
    }

    private static int answer(String bundlePath, List<String> feeds, Map<String, String> options, List<String> flags,
                              PrintStream out, PrintStream err) throws Usage {
        if (bundlePath == null) {
            throw new Usage("the following arguments are required: BUNDLE");
        }
        if (feeds.isEmpty() || !options.containsKey("--source")) {
            throw new Usage("the following arguments are required: " + (feeds.isEmpty() ? "--feed" : "--source"));
        }
        boolean vehicles = flags.contains("--vehicles");
        boolean alerts = flags.contains("--alerts");
        boolean report = flags.contains("--report");
        boolean departures = options.containsKey("--stop") && !alerts;
        boolean place = options.containsKey("--place");
        boolean trip = options.containsKey("--trip");
        int modes = (vehicles ? 1 : 0) + (alerts ? 1 : 0) + (report ? 1 : 0) + (departures ? 1 : 0) + (place ? 1 : 0)
                + (trip ? 1 : 0);
        if (modes != 1) {
            throw new Usage("one of --stop, --place, --trip, --vehicles, --alerts and --report is required");
        }
        String mode = departures ? "--stop" : place ? "--place" : trip ? "--trip" : vehicles ? "--vehicles"
                : alerts ? "--alerts" : "--report";
        List<String> allowed = new ArrayList<>(List.of("--source", "--at", "--max-age"));
        allowed.addAll(departures ? List.of("--stop", "--limit") : place ? List.of("--place", "--limit")
                : trip ? List.of("--trip", "--date") : vehicles ? List.of("--route", "--direction")
                : alerts ? List.of("--stop", "--route", "--lang") : List.of());
        for (String name : options.keySet()) {
            if (!allowed.contains(name)) {
                throw new Usage("argument " + name + ": not allowed with " + mode);
            }
        }
        int limit = (int) Math.min(number(options, "--limit", DEFAULT_LIMIT, 1), 10_000);
        long maxAge = number(options, "--max-age", LiveLimits.DEFAULT_MAX_AGE, 0);
        Long direction = options.containsKey("--direction") ? Long.valueOf(number(options, "--direction", 0, 0)) : null;
        Integer date = null;
        if (options.containsKey("--date")) {
            date = ServiceDay.parseDate(options.get("--date").strip());
            if (date < 0) {
                throw new Usage("argument --date: not YYYYMMDD: " + PyText.repr(options.get("--date")));
            }
        }
        boolean json = flags.contains("--json");
        String source = options.get("--source");
        if (!new File(bundlePath).isFile()) {
            err.println("feedc-jvm: no bundle at " + bundlePath);
            return 2;
        }
        try (LiveBundle bundle = LiveBundle.open(bundlePath)) {
            if (bundle.idPrefix(source) == null) {
                throw new Usage("argument --source: the bundle has no source " + PyText.repr(source));
            }
            ZoneId zone = bundle.zone(null);
            long at;
            try {
                at = options.containsKey("--at") ? ServiceDay.parseLocal(options.get("--at"), zone)
                        : System.currentTimeMillis() / 1000;
            } catch (DateTimeParseException error) {
                throw new Usage("argument --at: not YYYY-MM-DDTHH:MM:SS: " + PyText.repr(options.get("--at")));
            }
            String stop = options.get("--stop");
            String route = options.get("--route");
            List<LiveFeed> states = new ArrayList<>();
            List<FeedMessage> messages = new ArrayList<>();
            List<String> sources = new ArrayList<>();
            for (String feed : feeds) {
                FeedMessage message;
                try {
                    message = MessageReader.read(Path.of(feed), LiveLimits.DEFAULT);
                } catch (LiveException error) {
                    err.println("feedc-jvm: " + feed + ": " + PyText.oneLine(error.toString()));
                    return 1;
                } catch (IOException error) {
                    String why = error instanceof NoSuchFileException ? "No such file or directory" : String.valueOf(error.getMessage());
                    err.println("feedc-jvm: " + feed + ": cannot read: " + PyText.oneLine(why));
                    return 1;
                }
                LiveFeed state = new LiveFeed(source);  // one state per file
                state.apply(message);
                states.add(state);
                messages.add(message);
                sources.add(source);
            }
            LiveView view = new LiveView(bundle, states, at, maxAge);
            Map<String, Object> answer = new LinkedHashMap<>();
            if (departures || place) {
                List<Object> list = new ArrayList<>();
                for (Departure departure : departures ? view.departures(stop, limit, null)
                        : view.placeDepartures(options.get("--place"), limit)) {
                    list.add(departure.json(zone));
                    if (!json) {
                        out.println(LiveText.departure(departure, zone));
                    }
                }
                answer.put("departures", list);
            } else if (trip) {
                TripProgress progress = view.tripProgress(options.get("--trip"), date);
                answer.put("trip", progress == null ? null : progress.json(zone));
                if (!json) {
                    out.println(progress == null ? "no trip " + options.get("--trip") + " in the bundle"
                            : LiveText.trip(progress, zone));
                }
            } else if (vehicles) {
                List<Object> list = new ArrayList<>();
                for (Vehicle vehicle : view.vehicles(route, direction)) {
                    list.add(vehicle.json(zone));
                    if (!json) {
                        out.println(LiveText.vehicle(vehicle));
                    }
                }
                answer.put("vehicles", list);
            } else if (alerts) {
                List<Object> list = new ArrayList<>();
                for (AlertView alert : view.alerts(stop, route, options.get("--lang"))) {
                    list.add(alert.json());
                    if (!json) {
                        out.println(LiveText.alert(alert));
                    }
                }
                answer.put("alerts", list);
            } else {
                answer = LiveReport.json(view, feeds, sources, messages);  // its "stale" last
                if (!json) {
                    out.println(LiveText.report(answer));
                }
            }
            answer.putIfAbsent("stale", view.stale());
            if (json) {
                out.println(LiveJson.write(answer));
            } else if (view.stale()) {
                out.println("(stale: a message is older than " + maxAge + " s, or has no timestamp)");
            }
            return 0;
        } catch (Usage error) {
            throw error;
        } catch (Exception | Error error) {  // one readable line, never a stack trace
            err.println("feedc-jvm: " + bundlePath + ": " + error.getClass().getSimpleName() + ": "
                    + PyText.oneLine(String.valueOf(error.getMessage())));
            return 2;
        }
    }
}
