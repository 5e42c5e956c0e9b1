"""Write the Kalkati.net sample: the metro sample as a jp_database dump, placed in Helsinki.

    Samples/kalkati/metro.xml          the Kalkati dump (valid against jpdb.xsd, revision 1.2)
    Samples/kalkati/metro-gtfs/        the same timetable as GTFS: what the dump must compile to

Kalkati has no shapes, headsigns, directions, stop codes or boarding rules, so the GTFS twin
holds only what Kalkati can say: stops (id, name, position), routes (id, names, type), one
trip per Kalkati Service (trip ids 1..N), stop times (whole minutes) and the same service days.
Positions: the metro's metre grid is laid out around Helsinki (60.17 N, 24.94 E); the dump
stores them as KKJ Uniform Coordinate System (YKJ, EPSG:2393) grid metres, rounded to 1 m.

Called by generate.py; deterministic, standard library only.
"""

import math
import os
from xml.sax.saxutils import quoteattr

# International 1924 (Hayford) and GRS80 ellipsoids; KKJ -> WGS84 Helmert (position vector),
# the parameters PROJ uses for EPSG:2393. The reverse applies the negated parameters (the
# rotations are tiny: the error is far below a millimetre).
HAYFORD = (6378388.0, 1 / 297.0)
GRS80 = (6378137.0, 1 / 298.257222101)
HELMERT = (-96.062, -82.428, -121.753, 4.801, 0.345, -1.376, 1.496)


def _ecef(lat, lon, ell):
    a, f = ell
    e2 = f * (2 - f)
    p, l = math.radians(lat), math.radians(lon)
    n = a / math.sqrt(1 - e2 * math.sin(p) ** 2)
    return (n * math.cos(p) * math.cos(l), n * math.cos(p) * math.sin(l), n * (1 - e2) * math.sin(p))


def _geodetic(x, y, z, ell):
    a, f = ell
    e2 = f * (2 - f)
    lon = math.atan2(y, x)
    r = math.hypot(x, y)
    lat = math.atan2(z, r * (1 - e2))
    for _ in range(6):
        n = a / math.sqrt(1 - e2 * math.sin(lat) ** 2)
        h = r / math.cos(lat) - n
        lat = math.atan2(z, r * (1 - e2 * n / (n + h)))
    return math.degrees(lat), math.degrees(lon)


def _helmert(x, y, z, sign):
    tx, ty, tz, rx, ry, rz, s = [sign * v for v in HELMERT]
    arcsec = math.radians(1 / 3600.0)
    rx, ry, rz, m = rx * arcsec, ry * arcsec, rz * arcsec, 1 + s * 1e-6
    return (tx + m * (x - rz * y + ry * z), ty + m * (rz * x + y - rx * z), tz + m * (-ry * x + rx * y + z))


def wgs84_to_ykj(lat, lon):
    """(northing, easting) in KKJ zone 3 (YKJ) of a WGS84 position (Krueger series)."""
    la, lo = _geodetic(*_helmert(*_ecef(lat, lon, GRS80), -1), HAYFORD)
    a, f = HAYFORD
    n = f / (2 - f)
    big_a = a / (1 + n) * (1 + n ** 2 / 4 + n ** 4 / 64)
    e = math.sqrt(f * (2 - f))
    phi, lam = math.radians(la), math.radians(lo - 27.0)
    t = math.sinh(math.atanh(math.sin(phi)) - e * math.atanh(e * math.sin(phi)))
    xi_p = math.atan2(t, math.cos(lam))
    eta_p = math.atanh(math.sin(lam) / math.sqrt(1 + t * t))
    a1 = n / 2 - 2 * n ** 2 / 3 + 5 * n ** 3 / 16
    a2 = 13 * n ** 2 / 48 - 3 * n ** 3 / 5
    a3 = 61 * n ** 3 / 240
    xi = xi_p + sum(c * math.sin(2 * k * xi_p) * math.cosh(2 * k * eta_p) for k, c in ((1, a1), (2, a2), (3, a3)))
    eta = eta_p + sum(c * math.cos(2 * k * xi_p) * math.sinh(2 * k * eta_p) for k, c in ((1, a1), (2, a2), (3, a3)))
    return big_a * xi, 3500000.0 + big_a * eta


def _days(yyyymmdd):
    import datetime
    return datetime.date(int(yyyymmdd[:4]), int(yyyymmdd[4:6]), int(yyyymmdd[6:]))


def _vector(service, calendar, calendar_dates, first, last):
    """The Kalkati bit string of a GTFS service from first to last (inclusive)."""
    import datetime
    row = next(r for r in calendar if r[0] == service)
    flags, start, end = row[1:8], _days(row[8]), _days(row[9])
    added = {_days(d) for s, d, e in calendar_dates if s == service and e == "1"}
    removed = {_days(d) for s, d, e in calendar_dates if s == service and e == "2"}
    bits, day = [], first
    while day <= last:
        runs = start <= day <= end and flags[day.weekday()] == "1"
        bits.append("1" if (runs or day in added) and day not in removed else "0")
        day += datetime.timedelta(days=1)
    return "".join(bits)


def _hhmm(hms):
    h, m, s = hms.split(":")
    assert s == "00", hms
    return "%02d%s" % (int(h), m)


def write(feed, meta, frame_class, write_csv, out_dir):
    """Writes out_dir/metro.xml and out_dir/metro-gtfs/; returns row counts."""
    helsinki = frame_class(60.17, 24.94)
    stops = []
    for sid, s in feed.stops.items():
        lat, lon = helsinki.ll(*s["_xy"])
        north, east = wgs84_to_ykj(lat, lon)
        stops.append(dict(stop_id=sid, stop_name=s["stop_name"], stop_lat="%.6f" % lat, stop_lon="%.6f" % lon,
                          X=int(round(east)), Y=int(round(north))))
    services = {c[0]: str(i + 1) for i, c in enumerate(meta["calendar"])}  # WKDY -> 1, WKND -> 2
    trip_ids = {t["trip_id"]: str(i + 1) for i, t in enumerate(feed.trips)}
    routes = {r["route_id"]: r for r in meta["routes"]}
    first, last = _days(meta["calendar"][0][8]), _days(meta["calendar"][0][9])
    by_trip = {}
    for st in feed.stop_times:
        by_trip.setdefault(st["trip_id"], []).append(st)

    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           "<!-- The metro sample as a Kalkati.net dump, written by Samples/generate.py; fictional. -->",
           '<jp_database version="1.0">',
           '  <Delivery Firstday="%sT00:00:00+02:00" Lastday="%sT00:00:00+02:00" CompanyId="1" Version="2026.1-sample"/>'
           % (first.isoformat(), last.isoformat()),
           '  <Language LanguageId="en" Description="English" isDefault="true"/>',
           '  <Company CompanyId="1" Code="metro" Name="Metro Transit"/>',
           '  <Country CountryId="fi" Name="Suomi"/>',
           '  <Timezone TimezoneId="1">',
           '    <Period Difference="+02:00" Firstday="2026-01-01T00:00:00+02:00" Lastday="2027-01-01T00:00:00+02:00"/>',
           '  </Timezone>']
    for s in stops:
        out.append('  <Station StationId=%s Name=%s CountryId="fi" TimezoneId="1" X="%d" Y="%d"/>'
                   % (quoteattr(s["stop_id"]), quoteattr(s["stop_name"]), s["X"], s["Y"]))
    out.append('  <Trnsmode TrnsmodeId="1" Name="Bus" ModeType="5"/>')
    for c in meta["calendar"]:
        out.append('  <Footnote FootnoteId="%s" Firstdate="%s" Vector="%s"/>'
                   % (services[c[0]], first.isoformat(),
                      _vector(c[0], meta["calendar"], meta["calendar_dates"], first, last)))
    out.append("  <Timetbls>")
    for t in feed.trips:
        route = routes[t["route_id"]]
        out.append('    <Service ServiceId="%s">' % trip_ids[t["trip_id"]])
        out.append('      <ServiceNbr CompanyId="1" ServiceNbr=%s Name=%s/>'
                   % (quoteattr(route["route_short_name"]), quoteattr(route["route_long_name"])))
        out.append('      <ServiceValidity FootnoteId="%s"/>' % services[t["service_id"]])
        out.append('      <ServiceTrnsmode TrnsmodeId="1"/>')
        for st in by_trip[t["trip_id"]]:
            out.append('      <Stop Ix="%s" StationId=%s Arrival="%s" Departure="%s"/>'
                       % (st["stop_sequence"], quoteattr(st["stop_id"]), _hhmm(st["arrival_time"]), _hhmm(st["departure_time"])))
        out.append("    </Service>")
    out += ["  </Timetbls>", "</jp_database>", ""]
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "metro.xml"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(out))

    gtfs = os.path.join(out_dir, "metro-gtfs")
    counts = {"metro.xml services": len(feed.trips)}
    counts["agency.txt"] = write_csv(gtfs, "agency.txt", ["agency_id", "agency_name", "agency_url", "agency_timezone", "agency_lang"],
                                     [["1", "Metro Transit", "https://example.org/metro", "Europe/Helsinki", "en"]])
    counts["stops.txt"] = write_csv(gtfs, "stops.txt", ["stop_id", "stop_name", "stop_lat", "stop_lon"], stops)
    counts["routes.txt"] = write_csv(gtfs, "routes.txt", ["route_id", "agency_id", "route_short_name", "route_long_name", "route_type"],
                                     [[r["route_id"], "1", r["route_short_name"], r["route_long_name"], "3"] for r in meta["routes"]])
    counts["trips.txt"] = write_csv(gtfs, "trips.txt", ["route_id", "service_id", "trip_id"],
                                    [[t["route_id"], services[t["service_id"]], trip_ids[t["trip_id"]]] for t in feed.trips])
    counts["stop_times.txt"] = write_csv(
        gtfs, "stop_times.txt", ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence"],
        [[trip_ids[st["trip_id"]], st["arrival_time"], st["departure_time"], st["stop_id"], st["stop_sequence"]]
         for st in feed.stop_times])
    counts["calendar.txt"] = write_csv(gtfs, "calendar.txt", ["service_id", "monday", "tuesday", "wednesday", "thursday",
                                                              "friday", "saturday", "sunday", "start_date", "end_date"],
                                       [[services[c[0]]] + c[1:] for c in meta["calendar"]])
    counts["calendar_dates.txt"] = write_csv(gtfs, "calendar_dates.txt", ["service_id", "date", "exception_type"],
                                             [[services[s], d, e] for s, d, e in meta["calendar_dates"]])
    return counts
