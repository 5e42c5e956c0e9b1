"""An independent oracle for the journey planner (issue 29): earliest arrival by a connection
scan (Dibbelt, Pajor, Strasser, Wagner) over the raw GTFS files, compared with `feedc plan
--batch` on the bundle compiled from them.

The oracle reads the timetable from the zips themselves (calendar, calendar_dates, trips,
stop_times, frequencies, and transfers.txt and stops.txt for changes), not from the planner's
tables. Both sides share one transfer model: the bundle's stop_transfers between stops where
trips call, one footpath after arriving by a ride or at the origin (never two walks in a row:
each stop keeps its earliest arrival and its earliest arrival by a ride); a change of vehicles at
one stop takes transfers.txt's stop-level time there (the stop's own row, from_stop_id =
to_stop_id with no route or trip, else its parent station's: transfer_type 2 its
min_transfer_time, 3 no change there, 0 and 1 none), staying on a trip takes none; a stop id names its place (the stop, its station, what the bundle's
same_places links to either, and those stations' stops: any is a start, the first reached the
end); at most 8 rides a journey, as the planner; a stop the feed leaves untimed is passed through; pickup_type 1 is not
boarded, drop_off_type 1 not alighted at; both service days (the day before's trips past
24:00:00); frequency-based trips run every headway of their windows.

    python3 csa_oracle.py BUNDLE.sqlite DATE QUERIES SEED PREFIX=ZIP...
    ORACLE_DELAYS=N also re-plans N answered queries with their first ride's trip cancelled, and
    again with it 10 minutes late from where it is boarded, against the oracle on the same delays.
    ORACLE_LIVE=TIMES.json plans on GTFS-Realtime predictions instead: the file (live_oracle.py's
    lines, the reference's predicted times of each trip a message names) changes those trips'
    calls on their service date (a call the reference predicts at its predicted arrival and
    departure); the queries depart within ORACLE_WINDOW (`FROM-TO`, seconds of the day) and
    `feedc plan` gets ORACLE_PLAN_ARGS (`--live FILE --source ID`). The summary also counts the
    queries whose earliest arrival the predictions change.

Prints one JSON object: the queries, how many agree, the first disagreements, and whether any
answered Pareto set holds a dominated journey.
"""
import bisect, csv, datetime, io, json, os, random, sqlite3, subprocess, sys, zipfile
from zoneinfo import ZoneInfo

MAX_RIDES = 8  # the planner's cap: JourneyPlanner.maxRides, feedc_planner.max_rides


def seconds(text):
    text = (text or "").strip()
    if not text:
        return None
    h, m, s = text.split(":")
    return int(h) * 3600 + int(m) * 60 + int(s)


def rows(z, name):
    names = {n.split("/")[-1]: n for n in z.namelist() if not n.split("/")[-1].startswith("._") and "__MACOSX" not in n}
    if name not in names:
        return []
    return list(csv.DictReader(io.TextIOWrapper(z.open(names[name]), "utf-8-sig")))


def active(z, date):
    day = datetime.date(date // 10000, date // 100 % 100, date % 100)
    weekday = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][day.weekday()]
    on = set()
    for r in rows(z, "calendar.txt"):
        if int(r["start_date"]) <= date <= int(r["end_date"]) and r[weekday].strip() == "1":
            on.add(r["service_id"])
    for r in rows(z, "calendar_dates.txt"):
        if int(r["date"]) == date:
            (on.add if r["exception_type"].strip() == "1" else on.discard)(r["service_id"])
    return on


TRIP_STOPS = {}  # trip id (prefixed) -> its timed stops, in order
LIVE = {}  # trip id (prefixed) -> (service date, {stop_sequence: (arrival, departure) seconds of that day})
FORBIDDEN = -1  # no change of vehicles at the stop (transfer_type 3)


def change_times(zips):
    """(prefixed) stop id -> seconds to change vehicles there, or FORBIDDEN, from transfers.txt's
    stop-level rows of each zip; a stop without a row of its own takes its parent station's."""
    out = {}
    for prefix, path in zips:
        z = zipfile.ZipFile(path)
        rules = {}
        for r in rows(z, "transfers.txt"):
            stop = (r.get("from_stop_id") or "").strip()
            if not stop or stop != (r.get("to_stop_id") or "").strip():
                continue
            if any((r.get(k) or "").strip() for k in ("from_route_id", "to_route_id", "from_trip_id", "to_trip_id")):
                continue
            kind = int((r.get("transfer_type") or "0").strip() or "0")
            time = (r.get("min_transfer_time") or "").strip()
            rules[stop] = FORBIDDEN if kind == 3 else min(max(int(time) if time else 0, 0), 86400) if kind == 2 else 0
        if not rules:
            continue
        for r in rows(z, "stops.txt"):
            stop, parent = r["stop_id"], (r.get("parent_station") or "").strip()
            if stop in rules:
                out[prefix + stop] = rules[stop]
            elif parent in rules:
                out[prefix + stop] = rules[parent]
    return out


def connections(zips, date):
    day = datetime.date(date // 10000, date // 100 % 100, date % 100)
    before = day - datetime.timedelta(days=1)
    previous = before.year * 10000 + before.month * 100 + before.day
    out = []
    for prefix, path in zips:
        z = zipfile.ZipFile(path)
        today, yesterday = active(z, date), active(z, previous)
        trips = {r["trip_id"]: r["service_id"] for r in rows(z, "trips.txt")}
        windows = {}
        for r in rows(z, "frequencies.txt"):
            if int(r["headway_secs"]) > 0:
                windows.setdefault(r["trip_id"], []).append((seconds(r["start_time"]), seconds(r["end_time"]), int(r["headway_secs"])))
        calls = {}
        for r in rows(z, "stop_times.txt"):
            if r.get("stop_id"):
                calls.setdefault(r["trip_id"], []).append(r)
        for trip, stops in calls.items():
            service = trips.get(trip)
            shifts = [s for s, days in ((0, today), (-86400, yesterday)) if service in days]
            if not shifts:
                continue
            stops.sort(key=lambda r: int(r["stop_sequence"]))
            live_date, live_calls = LIVE.get(prefix + trip, (None, {}))

            def timed_stops(predicted):
                timed = []
                for r in stops:
                    a, d = seconds(r.get("arrival_time")), seconds(r.get("departure_time"))
                    a, d = (a if a is not None else d), (d if d is not None else a)
                    if a is None:
                        continue
                    p_a, p_d = predicted.get(int(r["stop_sequence"]), (None, None))
                    a, d = (p_a if p_a is not None else a), (p_d if p_d is not None else d)
                    timed.append((prefix + r["stop_id"], a, max(a, d), (r.get("pickup_type") or "0").strip() != "1",
                                  (r.get("drop_off_type") or "0").strip() != "1"))
                return timed
            timed = timed_stops({})
            if len(timed) < 2:
                continue
            TRIP_STOPS[prefix + trip] = [t[0] for t in timed]
            first = timed[0][2]
            offsets = [0]
            if trip in windows:
                offsets = []
                for start, end, headway in windows[trip]:
                    run = start
                    while run < end:
                        offsets.append(run - first)
                        run += headway
            for shift in shifts:
                # The predictions apply to the run of their service date (today's, or
                # yesterday's less a day).
                on = live_date is not None and live_date == (date if shift == 0 else previous)
                run_stops = timed_stops(live_calls) if on else timed
                for offset in offsets:
                    key = (prefix + trip, offset + shift)
                    for i, ((s1, _, d1, board, _), (s2, a2, _, _, alight)) in enumerate(zip(run_stops, run_stops[1:])):
                        out.append((d1 + offset + shift, a2 + offset + shift, s1, s2, key, board, alight, prefix + trip, i))
    out.sort(key=lambda c: (c[0], c[1]))
    return out


def earliest(conns, departures, footpaths, origins, targets, t0, stops, runs, change, most=MAX_RIDES):
    # Two labels a stop, as the planner keeps them: the earliest arrival by any means (what
    # boarding needs) and by a ride (what a walk may start from: a walk never follows a walk),
    # each for at most k rides, k = 0…most (the planner's cap of 8 rides). A run is boarded
    # with the fewest rides that reach it in time: its later arrivals are then had with fewer
    # rides at no cost. Stops and runs are numbers here (lists, not dictionaries: 1,000
    # queries a bundle).
    # A third label: the earliest time a vehicle can be boarded at the stop (the start's or a
    # walk's arrival, or a ride's plus the stop's change time; never after a ride where no
    # change is allowed).
    never = 1 << 60
    arrival = [[never] * stops for _ in range(most + 1)]
    ride = [[never] * stops for _ in range(most + 1)]
    ready = [[never] * stops for _ in range(most + 1)]
    on = bytearray(runs)  # the fewest rides a run is ridden with, 0 when not boarded
    last = ready[most - 1]
    for k in range(most + 1):
        for origin in origins:
            arrival[k][origin] = ride[k][origin] = ready[k][origin] = t0
        for origin in origins:
            for to, walk in footpaths[origin]:
                if t0 + walk < arrival[k][to]:
                    arrival[k][to] = t0 + walk
                if t0 + walk < ready[k][to]:
                    ready[k][to] = t0 + walk
    end = arrival[most]
    best = min(end[target] for target in targets)
    for i in range(bisect.bisect_left(departures, t0), len(conns)):
        dep, arr, s1, s2, key, board, alight = conns[i]
        if dep >= best:
            break
        if board and last[s1] <= dep and on[key] != 1:
            k = 0
            while ready[k][s1] > dep:
                k += 1
            if on[key] == 0 or k + 1 < on[key]:
                on[key] = k + 1
        if on[key] and alight:
            wait = change[s2]
            for k in range(on[key], most + 1):
                if arr >= ride[k][s2]:
                    break
                ride[k][s2] = arr
                here, boardable = arrival[k], ready[k]
                if arr < here[s2]:
                    here[s2] = arr
                if wait != FORBIDDEN and arr + wait < boardable[s2]:
                    boardable[s2] = arr + wait
                for to, walk in footpaths[s2]:
                    if arr + walk < here[to]:
                        here[to] = arr + walk
                    if arr + walk < boardable[to]:
                        boardable[to] = arr + walk
            best = min(end[target] for target in targets)
    return None if best >= never else best


def main():
    bundle, date, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    zips = [(a.split("=", 1)[0], a.split("=", 1)[1]) for a in sys.argv[5:]]
    plan_args = os.environ.get("ORACLE_PLAN_ARGS", "").split()
    window = tuple(int(x) for x in os.environ["ORACLE_WINDOW"].split("-")) if os.environ.get("ORACLE_WINDOW") else (0, 24 * 3600)
    static_conns = None
    if os.environ.get("ORACLE_LIVE"):
        static_conns = connections(zips, date)
        zone = ZoneInfo(rows(zipfile.ZipFile(zips[0][1]), "agency.txt")[0]["agency_timezone"])
        prefix = zips[0][0]
        for line in open(os.environ["ORACLE_LIVE"], encoding="utf-8"):
            for trip in json.loads(line)["trips"]:
                d = trip["service_date"]
                start = int(datetime.datetime(d // 10000, d // 100 % 100, d % 100, 12, tzinfo=zone).timestamp()) - 12 * 3600
                LIVE[prefix + trip["trip_id"]] = (d, {c["stop_sequence"]: (c["arrival"] - start if c["arrival"] is not None else None,
                                                                           c["departure"] - start if c["departure"] is not None else None)
                                                      for c in trip["calls"]})
    db = sqlite3.connect(bundle)
    served = sorted({r[0] for r in db.execute("SELECT DISTINCT stop_id FROM pattern_stops")})
    served_set = set(served)
    footpaths = {}
    for a, b, s in db.execute("SELECT from_stop_id, to_stop_id, seconds FROM stop_transfers"):
        if a != b and a in served_set and b in served_set:
            footpaths.setdefault(a, []).append((b, s))
    conns = connections(zips, date)
    # Stops and runs as numbers.
    numbers, keys = {}, {}
    def number(stop):
        return numbers.setdefault(stop, len(numbers))
    for stop in served:
        number(stop)
    trips_of = [t for *_, t, _ in conns]
    positions = [i for *_, i in conns]
    conns = [(d, a, number(s1), number(s2), keys.setdefault(k, len(keys)), b, c) for d, a, s1, s2, k, b, c, _, _ in conns]
    paths = [[] for _ in range(len(numbers) + 1)]
    for a, targets in footpaths.items():
        for b, walk in targets:
            paths[number(a)].append((number(b), walk))
    paths += [[] for _ in range(len(numbers) + 1 - len(paths))]
    changes = change_times(zips)
    change_at = [0] * len(paths)
    for stop, n in numbers.items():
        change_at[n] = changes.get(stop, 0)
    departures = [c[0] for c in conns]
    # The timetable as published, for counting what the predictions change.
    static = static_departures = None
    if static_conns is not None:
        static = [(d_, a_, number(s1), number(s2), keys.setdefault(k, len(keys)), b, c) for d_, a_, s1, s2, k, b, c, _, _ in static_conns]
        static_departures = [c[0] for c in static]
    rng = random.Random(seed)
    day = f"{date // 10000:04d}-{date // 100 % 100:02d}-{date % 100:02d}"
    queries = []
    for _ in range(count):
        t = rng.randrange(window[0], window[1], 60)  # around the clock: at 00:30, last night's trains
        queries.append((rng.choice(served), rng.choice(served), t))
    # A stop id names its place: the stop, its station (stops.txt), every stop or station the
    # bundle's same_places links to either, and the stops of those stations; served ones only.
    parents, children = {}, {}
    for prefix, path in zips:
        for r in rows(zipfile.ZipFile(path), "stops.txt"):
            parent = (r.get("parent_station") or "").strip()
            if parent:
                parents[prefix + r["stop_id"]] = prefix + parent
                children.setdefault(prefix + parent, []).append(prefix + r["stop_id"])
    links = {}
    for a, b in db.execute("SELECT stop_id, other_stop_id FROM same_places"):
        links.setdefault(a, []).append(b)

    def place(stop):
        roots = {stop} | ({parents[stop]} if stop in parents else set())
        ids = roots | {other for root in roots for other in links.get(root, [])}
        stops = ids | {child for i in ids for child in children.get(i, [])}
        return sorted(numbers[s] for s in stops if s in served_set)
    text = "".join(json.dumps({"from": o, "to": d, "depart": f"{day}T{t // 3600:02d}:{t % 3600 // 60:02d}"}) + "\n" for o, d, t in queries)
    run = subprocess.run([os.environ["FEEDC_BINARY"], "plan", bundle, "--batch"] + plan_args, input=text, capture_output=True, text=True, timeout=1200)
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    live_changed = 0
    midnight = datetime.datetime(date // 10000, date // 100 % 100, date % 100)
    agree, found, disagreements, dominated = 0, 0, [], 0
    for (o, d, t), answer in zip(queries, answers):
        expected = earliest(conns, departures, paths, place(o), place(d), t, len(paths), len(keys) + 1, change_at)
        if static is not None:
            live_changed += earliest(static, static_departures, paths, place(o), place(d), t, len(paths), len(keys) + 1, change_at) != expected
        arrivals = [(datetime.datetime.fromisoformat(j["arrival"]).replace(tzinfo=None) - midnight).total_seconds() for j in answer["journeys"]]
        got = int(min(arrivals)) if arrivals else None
        if set(place(o)) & set(place(d)):
            got = t if got is None else min(got, t)
        if got == expected:
            agree += 1
        elif len(disagreements) < 5:
            disagreements.append({"from": o, "to": d, "depart": t, "oracle": expected, "planner": got})
        found += expected is not None
        pairs = [(j["transfers"], a) for j, a in zip(answer["journeys"], arrivals)]
        for x in pairs:
            if any(y != x and y[0] <= x[0] and y[1] <= x[1] for y in pairs):
                dominated += 1
    # Live delays: for answered queries, the first ride's trip cancelled, then 10 minutes late
    # from its boarding stop on; the planner re-plans and the oracle scans the changed timetable.
    delayed = int(os.environ.get("ORACLE_DELAYS", "0"))
    delay_agree, delay_runs, delay_changed = 0, 0, 0
    scenarios, expectations = [], []
    for (o, d, t), answer in zip(queries, answers):
        if len(scenarios) >= 2 * delayed:
            break
        rides = [leg for j in answer["journeys"][:1] for leg in j["legs"] if leg["mode"] == "ride"]
        if not rides:
            continue
        first = rides[0]
        for change in ({"cancelled": True}, {"seconds": 600, "from_stop_id": first["from_stop_id"]}):
            trip = first["trip_id"]
            stops_of = TRIP_STOPS.get(trip, [])
            start = stops_of.index(change["from_stop_id"]) if "from_stop_id" in change and change["from_stop_id"] in stops_of else 0
            changed = []
            for c, trip_of, i in zip(conns, trips_of, positions):
                if trip_of != trip:
                    changed.append(c)
                elif not change.get("cancelled"):
                    dep, arr = c[0] + (600 if i >= start else 0), c[1] + (600 if i + 1 >= start else 0)
                    changed.append((dep, arr) + c[2:])
            changed.sort(key=lambda c: (c[0], c[1]))
            expectations.append((earliest(changed, [c[0] for c in changed], paths, place(o), place(d), t, len(paths), len(keys) + 1, change_at),
                                 answer))
            scenarios.append(json.dumps({"from": o, "to": d, "depart": f"{day}T{t // 3600:02d}:{t % 3600 // 60:02d}",
                                         "delays": {trip: change}}) + "\n")
    if scenarios:
        run = subprocess.run([os.environ["FEEDC_BINARY"], "plan", bundle, "--batch"], input="".join(scenarios), capture_output=True, text=True, timeout=1200)
        for (expected, before), line in zip(expectations, run.stdout.splitlines()):
            after = json.loads(line)
            arrivals = [(datetime.datetime.fromisoformat(j["arrival"]).replace(tzinfo=None) - midnight).total_seconds() for j in after["journeys"]]
            got = int(min(arrivals)) if arrivals else None
            delay_runs += 1
            delay_agree += got == expected
            delay_changed += after["journeys"][:1] != before["journeys"][:1]
    headway = {r[0] for r in db.execute("SELECT DISTINCT trip_id FROM frequencies")}
    frequency_rides = sum(1 for a in answers for j in a["journeys"] for leg in j["legs"] if leg.get("trip_id") in headway)
    print(json.dumps({"queries": len(queries), "answers": len(answers), "agree": agree, "found": found, "frequency_rides": frequency_rides,
                      "delayed": delay_runs, "delayed_agree": delay_agree, "delayed_changed": delay_changed, "live_changed": live_changed,
                      "disagreements": disagreements, "dominated": dominated, "connections": len(conns)}))


main()
