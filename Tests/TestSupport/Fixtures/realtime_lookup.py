"""Looks up every TripUpdate of GTFS-Realtime messages in a bundle with the documented
`realtime_trip` query (docs/bundle-format.md), decoding them with gtfs-realtime-bindings. Prints
one JSON object per message: counts, and for every TripUpdate the trip id, its start date and
the first row found (or null).

    python realtime_lookup.py DOCS BUNDLE SOURCE_ID MESSAGE.pb...
"""
import json, sqlite3, sys
from google.transit import gtfs_realtime_pb2

docs, bundle, source = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(docs, encoding="utf-8").read()
query = next(b.split("\n```")[0] for b in text.split("```sql\n")[1:] if b.startswith("-- query: realtime_trip\n"))
db = sqlite3.connect(bundle)
routes = {r[0] for r in db.execute("SELECT route_id FROM routes")}
trips = {r[0] for r in db.execute("SELECT trip_id FROM trips")}
prefix = db.execute("SELECT id_prefix FROM feeds WHERE source_id = ?", (source,)).fetchone()[0]
conventional = {r[0] for r in db.execute("SELECT realtime_trip_id FROM realtime_trips WHERE source_id = ?", (source,))}
for path in sys.argv[4:]:
    message = gtfs_realtime_pb2.FeedMessage()
    message.ParseFromString(open(path, "rb").read())
    lookups = []
    for entity in message.entity:
        if not entity.HasField("trip_update"):
            continue
        trip = entity.trip_update.trip
        rows = db.execute(query, {"source_id": source, "trip_id": trip.trip_id, "start_date": trip.start_date or None}).fetchall()
        lookups.append({
            "trip_id": trip.trip_id, "start_date": trip.start_date, "route_in_bundle": (prefix + trip.route_id) in routes,
            "trip_in_bundle": (prefix + trip.trip_id) in trips,
            "conventional_id": trip.trip_id in conventional,
            "found": None if not rows else {"trip_id": rows[0][0], "service_date": rows[0][1], "runs": rows[0][2], "start_time": rows[0][4]},
        })
    print(json.dumps({"file": path.split("/")[-1], "timestamp": message.header.timestamp, "lookups": lookups}))
