"""What GTFS-Realtime's reference says a rider should see for each trip of a static feed that
TripUpdates name: an oracle written apart from feedc, from the raw GTFS zip (csv) and the
messages decoded by Google's gtfs-realtime-bindings. Prints one JSON object per message:

    {"file", "timestamp", "unknown": N, "trips": [{"trip_id", "service_date",
      "calls": [{"stop_sequence", "stop_id", "arrival", "departure"}]}]}

`arrival` / `departure`: the predicted POSIX time, or null where the reference gives none (calls
before the first update, events without a schedule). The rules, from trip-updates.md of
google/transit: an update's own time where it gives one, else its delay on the schedule; a call
without an update takes the last earlier update's delay (the departure's, else the arrival's),
or before the first update the TripUpdate's own `delay`; no other backward propagation; SKIPPED carries the delay over, NO_DATA stops it. A missing arrival is
the scheduled arrival plus the update's departure delay; a missing departure the scheduled
departure plus its arrival delay, never before the predicted arrival (docs/live.md states these
two choices the reference leaves open). The service date is `start_date`, or the day before
for a trip that starts at 24:00:00 or later and runs then (WMATA dates those by the calendar);
when both run, the one whose start is nearest the message's timestamp.

    python live_oracle.py STATIC.zip MESSAGE.pb...
"""
import csv, datetime, io, json, sys, zipfile
from zoneinfo import ZoneInfo
from google.transit import gtfs_realtime_pb2


def read(z, name):
    try:
        with z.open(name) as f:
            return list(csv.DictReader(io.TextIOWrapper(f, encoding="utf-8-sig")))
    except KeyError:
        return []


def seconds(text):
    if not text or not text.strip():
        return None
    h, m, s = text.strip().split(":")
    return int(h) * 3600 + int(m) * 60 + int(s)


z = zipfile.ZipFile(sys.argv[1])
zone = ZoneInfo(read(z, "agency.txt")[0]["agency_timezone"])
trips = {t["trip_id"]: t for t in read(z, "trips.txt")}
calls = {}
for row in read(z, "stop_times.txt"):
    calls.setdefault(row["trip_id"], []).append(row)
for rows in calls.values():
    rows.sort(key=lambda r: int(r["stop_sequence"]))
calendar = {c["service_id"]: c for c in read(z, "calendar.txt")}
exceptions = {(x["service_id"], x["date"]): x["exception_type"] for x in read(z, "calendar_dates.txt")}
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


def runs(service, date):
    flag = exceptions.get((service, date))
    if flag == "1":
        return True
    if flag == "2":
        return False
    c = calendar.get(service)
    if not c or not (c["start_date"] <= date <= c["end_date"]):
        return False
    day = datetime.date(int(date[:4]), int(date[4:6]), int(date[6:]))
    return c[WEEKDAYS[day.weekday()]] == "1"


def day_start(date):
    noon = datetime.datetime(int(date[:4]), int(date[4:6]), int(date[6:]), 12, tzinfo=zone)
    return int(noon.timestamp()) - 12 * 3600


def day_before(date):
    d = datetime.date(int(date[:4]), int(date[4:6]), int(date[6:])) - datetime.timedelta(days=1)
    return d.strftime("%Y%m%d")


def service_date(trip_id, start_date, stamp):
    first = seconds(calls[trip_id][0]["departure_time"]) or 0
    options = [start_date] + ([day_before(start_date)] if first >= 86400 else [])
    running = [d for d in options if runs(trips[trip_id]["service_id"], d)]
    if not running:
        return None
    return min(running, key=lambda d: abs(stamp - (day_start(d) + first)))


def predict(trip_id, date, update):
    base = day_start(date)
    by_sequence = {u.stop_sequence: u for u in update.stop_time_update if u.HasField("stop_sequence")}
    # The trip's own delay holds until the first stop time update (reference.md, TripUpdate.delay).
    out, carry = [], (update.delay if update.HasField("delay") else None)
    for row in calls[trip_id]:
        arr, dep = seconds(row["arrival_time"]), seconds(row["departure_time"])
        sched_arr = base + arr if arr is not None else None
        sched_dep = base + dep if dep is not None else None
        u = by_sequence.get(int(row["stop_sequence"]))
        p_arr = p_dep = None
        if u is None:
            if carry is not None:
                p_arr = sched_arr + carry if sched_arr is not None else None
                p_dep = sched_dep + carry if sched_dep is not None else None
        elif u.schedule_relationship == u.SKIPPED:
            pass
        elif u.schedule_relationship == u.NO_DATA:
            carry = None
        else:
            def event(e, sched):
                if e.HasField("time"):
                    return e.time
                if e.HasField("delay") and sched is not None:
                    return sched + e.delay
                return None
            a = event(u.arrival, sched_arr) if u.HasField("arrival") else None
            d = event(u.departure, sched_dep) if u.HasField("departure") else None
            a_delay = a - sched_arr if a is not None and sched_arr is not None else None
            d_delay = d - sched_dep if d is not None and sched_dep is not None else None
            p_arr = a if a is not None else (sched_arr + d_delay if sched_arr is not None and d_delay is not None else None)
            p_dep = d if d is not None else (max(sched_dep + a_delay, p_arr if p_arr is not None else sched_dep + a_delay)
                                             if sched_dep is not None and a_delay is not None else None)
            if d_delay is not None:
                carry = d_delay
            elif a_delay is not None:
                carry = a_delay
        out.append({"stop_sequence": int(row["stop_sequence"]), "stop_id": row["stop_id"], "arrival": p_arr, "departure": p_dep})
    return out


for path in sys.argv[2:]:
    message = gtfs_realtime_pb2.FeedMessage()
    message.ParseFromString(open(path, "rb").read())
    stamp = message.header.timestamp
    unknown, known = 0, []
    for entity in message.entity:
        if not entity.HasField("trip_update"):
            continue
        update = entity.trip_update
        trip_id = update.trip.trip_id
        if trip_id not in trips:
            unknown += 1
            continue
        date = service_date(trip_id, update.trip.start_date, update.timestamp or stamp)
        if date is None:
            continue
        known.append({"trip_id": trip_id, "service_date": int(date), "calls": predict(trip_id, date, update)})
    print(json.dumps({"file": path.split("/")[-1], "timestamp": stamp, "unknown": unknown, "trips": known}))
