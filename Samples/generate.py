#!/usr/bin/env python3
"""Generate the hand-made GTFS sample feeds used by feedc tests.

    python3 Samples/generate.py            # (re)write Samples/metro, Samples/rail, Samples/expected.json,
                                           # and Samples/kalkati (the metro as a Kalkati dump)
    python3 Samples/generate.py --check    # write, then validate the written feeds

Fully deterministic: no randomness, no network, no third-party modules.
Geometry is designed in a local metre grid (x = east, y = north) and converted
to WGS84 with a spherical-earth equirectangular projection, so haversine
distances between nearby points match the design distances to < 0.1 %.
All shape_dist_traveled values are cumulative haversine metres along shapes.txt.

The ground truth (which stops are "across the street" from each other, the
couplet, the loop stops, the ordered user-facing directions) is written to
Samples/expected.json and described in Samples/README.md.
"""

import csv
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
R_EARTH = 6371008.8
M_PER_DEG = R_EARTH * math.pi / 180.0


# --------------------------------------------------------------------------
# geometry helpers
# --------------------------------------------------------------------------

class Frame:
    """Local metre grid around (lat0, lon0)."""

    def __init__(self, lat0, lon0):
        self.lat0, self.lon0 = lat0, lon0
        self.m_per_deg_lon = M_PER_DEG * math.cos(math.radians(lat0))

    def ll(self, x, y):
        return (round(self.lat0 + y / M_PER_DEG, 6),
                round(self.lon0 + x / self.m_per_deg_lon, 6))


def haversine(a, b):
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = (math.sin((la2 - la1) / 2) ** 2
         + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2)
    return 2 * R_EARTH * math.asin(math.sqrt(h))


class Path:
    """A directed polyline in local metres (the centre line a vehicle drives)."""

    def __init__(self, pts):
        self.pts = [(float(x), float(y)) for x, y in pts]
        self.cum = [0.0]
        for a, b in zip(self.pts, self.pts[1:]):
            self.cum.append(self.cum[-1] + math.dist(a, b))
        self.length = self.cum[-1]

    def __add__(self, other):
        pts = list(self.pts)
        for p in other.pts:
            if math.dist(pts[-1], p) > 1e-6:
                pts.append(p)
        return Path(pts)

    def reversed(self):
        return Path(list(reversed(self.pts)))

    def at(self, s):
        """Point and unit direction at chainage s."""
        s = min(max(s, 0.0), self.length)
        n = len(self.pts) - 1
        for i in range(n):
            if s <= self.cum[i + 1] or i == n - 1:
                (ax, ay), (bx, by) = self.pts[i], self.pts[i + 1]
                seg = self.cum[i + 1] - self.cum[i]
                t = (s - self.cum[i]) / seg
                return (ax + t * (bx - ax), ay + t * (by - ay)), ((bx - ax) / seg, (by - ay) / seg)
        raise AssertionError

    def offset(self, s, d, along=0.0):
        """Point d metres to the RIGHT of the travel direction at chainage s
        (negative d = left), shifted `along` metres in the travel direction."""
        (x, y), (ux, uy) = self.at(s)
        return (x + d * uy + along * ux, y - d * ux + along * uy)

    def project(self, p, s_min=0.0, right_side=True, max_d=45.0):
        """Chainage of the point of this path nearest to p, not before s_min.
        With right_side, candidates where p lies on the right of the travel
        direction win (kerb-side stops); ties go to the earliest chainage."""
        best = None
        px, py = p
        for i in range(len(self.pts) - 1):
            if self.cum[i + 1] < s_min - 1e-9:
                continue
            (ax, ay), (bx, by) = self.pts[i], self.pts[i + 1]
            seg = self.cum[i + 1] - self.cum[i]
            ux, uy = (bx - ax) / seg, (by - ay) / seg
            t = (px - ax) * ux + (py - ay) * uy
            t = min(max(t, max(0.0, s_min - self.cum[i])), seg)
            qx, qy = ax + t * ux, ay + t * uy
            d = math.hypot(px - qx, py - qy)
            if d > max_d:
                continue
            side = (px - qx) * uy - (py - qy) * ux  # > 0: right of travel
            bad = 1 if (right_side and side < -1.0) else 0
            cand = (bad, d, self.cum[i] + t)
            if (best is None or cand[0] < best[0]
                    or (cand[0] == best[0] and cand[1] < best[1] - 0.5)):
                best = cand
        if best is None:
            raise ValueError("point %r is not near the path (after %.1f m)" % (p, s_min))
        return best[2]


# --------------------------------------------------------------------------
# small utilities
# --------------------------------------------------------------------------

def hms(sec):
    sec = int(sec)
    return "%02d:%02d:%02d" % (sec // 3600, (sec // 60) % 60, sec % 60)


def t(hhmm):
    """'0615' or '24:30' -> seconds after midnight."""
    hhmm = hhmm.replace(":", "")
    return int(hhmm[:-2]) * 3600 + int(hhmm[-2:]) * 60


def tag(sec):
    return "%02d%02d" % (sec // 3600, (sec // 60) % 60)


def every(start, end, step_min):
    """Departure times from start to end inclusive, every step_min minutes."""
    out, s = [], t(start)
    while s <= t(end):
        out.append(s)
        s += step_min * 60
    return out


def write_csv(folder, name, header, rows):
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
        w.writerow(header)
        for r in rows:
            if isinstance(r, dict):
                r = [r.get(h, "") for h in header]
            w.writerow(["" if v is None else v for v in r])
    return len(rows)


class Feed:
    """Collects stops, patterns, shapes and trips, then writes GTFS text files."""

    def __init__(self, frame, shape_step=150.0):
        self.frame = frame
        self.shape_step = shape_step  # max spacing of in-between shape points (m)
        self.stops = {}            # id -> dict (x, y + GTFS fields)
        self.patterns = {}         # id -> dict
        self.shapes = {}           # shape_id -> list of (lat, lon, dist)
        self.trips = []            # list of dict (trips.txt fields + internals)
        self.stop_times = []

    # stops ---------------------------------------------------------------
    def stop(self, sid, name, xy, code="", desc="", zone="", location_type="0",
             parent="", wheelchair="1", platform=""):
        assert sid not in self.stops, sid
        lat, lon = self.frame.ll(*xy)
        self.stops[sid] = dict(stop_id=sid, stop_code=code, stop_name=name, stop_desc=desc,
                               stop_lat="%.6f" % lat, stop_lon="%.6f" % lon, zone_id=zone,
                               stop_url="", location_type=location_type,
                               parent_station=parent, wheelchair_boarding=wheelchair,
                               platform_code=platform, _xy=xy, _ll=(lat, lon))

    # patterns ------------------------------------------------------------
    def pattern(self, pid, path, stop_ids, shape_id=None, right_side=True):
        chain, s = [], 0.0
        for sid in stop_ids:
            s = path.project(self.stops[sid]["_xy"], s_min=s + (1.0 if chain else 0.0),
                             right_side=right_side)
            chain.append(s)
        pat = dict(id=pid, path=path, stops=list(stop_ids), chain=chain,
                   shape_id=shape_id, dist=None)
        if shape_id:
            pat["dist"] = self._make_shape(shape_id, path, chain)
        self.patterns[pid] = pat
        return pat

    def _make_shape(self, shape_id, path, stop_chain):
        step = self.shape_step
        cs = set(round(c, 2) for c in path.cum)
        cs.update(round(c, 2) for c in stop_chain)
        for a, b in zip(path.cum, path.cum[1:]):
            n = int((b - a) // step)
            for k in range(1, n + 1):
                c = a + (b - a) * k / (n + 1)
                cs.add(round(c, 2))
        cs = sorted(cs)
        stop_keys = set(round(c, 2) for c in stop_chain)
        kept = []
        for c in cs:  # drop helper points within 2 m of a kept point (never drop stop points)
            if kept and c - kept[-1] < 2.0:
                if c in stop_keys and kept[-1] not in stop_keys:
                    kept[-1] = c
                continue
            kept.append(c)
        pts, dist, total, prev = [], {}, 0.0, None
        for c in kept:
            ll = self.frame.ll(*path.at(c)[0])
            if prev is not None:
                total += haversine(prev, ll)
            pts.append((ll[0], ll[1], total))
            dist[c] = total
            prev = ll
        self.shapes[shape_id] = pts
        out = []
        for c in stop_chain:
            key = min(kept, key=lambda k: abs(k - round(c, 2)))
            out.append(dist[key])
        return out

    # trips ---------------------------------------------------------------
    def trip(self, pid, start, speed, fields, dwell=None, stop_seqs=None,
             timepoints=None, with_dist=True):
        """speed in m/s (includes ordinary stop time); dwell: {stop_id: seconds}
        between arrival and departure; times rounded to whole minutes."""
        pat = self.patterns[pid]
        dwell = dwell or {}
        rows, extra, prev_dep = [], 0, None
        n = len(pat["stops"])
        for i, sid in enumerate(pat["stops"]):
            raw = start + (pat["chain"][i] - pat["chain"][0]) / speed + extra
            arr = int(raw / 60.0 + 0.5) * 60
            if prev_dep is not None and arr < prev_dep:
                arr = prev_dep
            dw = dwell.get(sid, 0) if 0 < i < n - 1 else 0
            dep = arr + dw
            extra += dw
            prev_dep = dep
            seq = stop_seqs[i] if stop_seqs else i + 1
            tp = "1" if (i in (0, n - 1) or (timepoints and sid in timepoints)) else "0"
            d = ""
            if with_dist and pat["dist"] is not None:
                d = "%.1f" % pat["dist"][i]
            rows.append(dict(trip_id=fields["trip_id"], arrival_time=hms(arr),
                             departure_time=hms(dep), stop_id=sid, stop_sequence=seq,
                             stop_headsign="",
                             pickup_type="1" if i == n - 1 else "0",
                             drop_off_type="1" if i == 0 else "0",
                             shape_dist_traveled=d, timepoint=tp))
        tr = dict(fields)
        tr["shape_id"] = pat["shape_id"] if with_dist else ""
        tr["_pattern"] = pid
        self.trips.append(tr)
        self.stop_times.extend(rows)
        return rows

    # output --------------------------------------------------------------
    def write(self, folder, agency, routes, calendar, calendar_dates, feed_info,
              frequencies=None, translations=None):
        counts = {}
        counts["agency.txt"] = write_csv(folder, "agency.txt", list(agency[0].keys()), agency)
        counts["stops.txt"] = write_csv(folder, "stops.txt", STOP_COLS, list(self.stops.values()))
        counts["routes.txt"] = write_csv(folder, "routes.txt", ROUTE_COLS, routes)
        counts["trips.txt"] = write_csv(folder, "trips.txt", TRIP_COLS, self.trips)
        counts["stop_times.txt"] = write_csv(folder, "stop_times.txt", STOP_TIME_COLS, self.stop_times)
        counts["calendar.txt"] = write_csv(folder, "calendar.txt", CAL_COLS, calendar)
        if calendar_dates is not None:
            counts["calendar_dates.txt"] = write_csv(
                folder, "calendar_dates.txt", ["service_id", "date", "exception_type"], calendar_dates)
        shape_rows = []
        for sid, pts in self.shapes.items():
            for k, (lat, lon, d) in enumerate(pts, 1):
                shape_rows.append([sid, "%.6f" % lat, "%.6f" % lon, k, "%.1f" % d])
        counts["shapes.txt"] = write_csv(folder, "shapes.txt", SHAPE_COLS, shape_rows)
        counts["feed_info.txt"] = write_csv(folder, "feed_info.txt", FEED_INFO_COLS, [feed_info])
        if frequencies is not None:
            counts["frequencies.txt"] = write_csv(folder, "frequencies.txt", FREQUENCY_COLS, frequencies)
        if translations is not None:
            counts["translations.txt"] = write_csv(folder, "translations.txt", TRANSLATION_COLS, translations)
        return counts


STOP_COLS = ["stop_id", "stop_code", "stop_name", "stop_desc", "stop_lat", "stop_lon", "zone_id",
             "stop_url", "location_type", "parent_station", "wheelchair_boarding", "platform_code"]
ROUTE_COLS = ["route_id", "agency_id", "route_short_name", "route_long_name", "route_desc",
              "route_type", "route_url", "route_color", "route_text_color", "route_sort_order"]
TRIP_COLS = ["route_id", "service_id", "trip_id", "trip_headsign", "trip_short_name",
             "direction_id", "block_id", "shape_id", "wheelchair_accessible", "bikes_allowed"]
STOP_TIME_COLS = ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence",
                  "stop_headsign", "pickup_type", "drop_off_type", "shape_dist_traveled", "timepoint"]
CAL_COLS = ["service_id", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
            "sunday", "start_date", "end_date"]
SHAPE_COLS = ["shape_id", "shape_pt_lat", "shape_pt_lon", "shape_pt_sequence", "shape_dist_traveled"]
FEED_INFO_COLS = ["feed_publisher_name", "feed_publisher_url", "feed_lang", "feed_start_date",
                  "feed_end_date", "feed_version"]
FREQUENCY_COLS = ["trip_id", "start_time", "end_time", "headway_secs", "exact_times"]
TRANSLATION_COLS = ["table_name", "field_name", "language", "translation", "record_id", "record_sub_id",
                    "field_value"]

WEEKDAYS = ["1", "1", "1", "1", "1", "0", "0"]
WEEKENDS = ["0", "0", "0", "0", "0", "1", "1"]


def bus_speed(sec):
    """Average scheduled bus speed (m/s, stops included) by time of day."""
    h = (sec / 3600.0) % 24
    if 7 <= h < 9 or 16 <= h < 18.5:
        return 4.0      # peak, ~14 km/h
    if h < 6.5 or h >= 21:
        return 5.0      # night, ~18 km/h
    return 4.5


# --------------------------------------------------------------------------
# Metro Transit (bus)
# --------------------------------------------------------------------------

def build_metro():
    F = Feed(Frame(37.80, -122.27))
    K = 11.0   # kerb offset: stop pole ~11 m from the street centre line

    def code(sid):
        return "1" + sid[1:].rjust(4, "0")  # s101 -> 10101

    def S(sid, name, xy, **kw):
        F.stop(sid, name, xy, code=code(sid), **kw)

    # ---- route 51 ------------------------------------------------------
    # 40th St runs east-west along y = 0. Westbound (outbound) buses use the
    # north kerb (y = +11), eastbound (inbound) the south kerb (y = -11).
    # Between x = 900 and x = 150 the eastbound buses use 41st St (y = 125):
    # the one-way couplet.
    S("s101", "Rockridge Station", (2400, K), desc="Bay 1")
    S("s102", "Rockridge Station", (2400, -K), desc="Bay 2")
    S("s103", "College Ave & Broadway", (2000, K))
    S("s104", "College Ave and Broadway", (2015, -K))
    S("s105", "Shattuck Av / 40th St", (1600, K))
    S("s106", "40th St & Shattuck Ave", (1588, -K))
    S("s107", "40th St & Telegraph Ave", (1200, K))
    S("s108", "40th St & Telegraph Ave", (1200, -K))
    S("s109", "40th St & Market St", (700, K))            # couplet, outbound street
    S("s110", "41st St & Market St", (710, 125 - K))      # couplet, inbound street
    S("s111", "40th St & West St", (300, K))              # couplet, outbound street
    S("s112", "41st St & West St", (295, 125 - K))        # couplet, inbound street
    S("s113", "40th St & San Pablo Ave", (-40, K), desc="Branch point")
    S("s114", "San Pablo Ave & 40th St", (-30, -K), desc="Branch point")
    # Marina branch: north on San Pablo Ave (x = -100); northbound kerb is east.
    S("s121", "San Pablo Ave & 45th St", (-100 + K, 420))
    S("s122", "San Pablo Ave & 45th St", (-100 - K, 405))
    S("s123", "San Pablo Ave & Park Ave", (-100 + K, 830))
    S("s124", "San Pablo & Park", (-100 - K, 830), wheelchair="0")
    S("s125", "San Pablo Ave & 53rd St", (-100 + K, 1240))
    S("s126", "San Pablo Av & 53rd St", (-100 - K, 1252))
    S("s130", "Marina", (-100 + K, 1700), desc="Terminal, single bay")
    # University branch: west on 40th St, SW on Adeline St, west on University Ave (y = -400)
    S("s141", "40th St & Adeline St", (-420, K))
    S("s142", "Adeline St & 40th St", (-405, -K))
    diag = Path([(-500, 0), (-900, -400)])
    S("s143", "Adeline St & Ashby Ave", diag.offset(200, K))
    S("s144", "Adeline St & Ashby Ave", diag.reversed().offset(diag.length - 200, K),
      wheelchair="2")
    S("s145", "University Ave & 6th St", (-1250, -400 + K))
    S("s146", "University Ave & 6th St", (-1262, -400 - K))
    S("s147", "University Ave & 3rd St", (-1650, -400 + K))
    S("s148", "University Ave & 3rd St", (-1650, -400 - K))

    trunk_out = Path([(2400, 0), (-100, 0)])
    trunk_in = Path([(-100, 0), (150, 0), (150, 125), (900, 125), (900, 0), (2400, 0)])
    marina_out = Path([(-100, 0), (-100, 1700)])
    univ_out = Path([(-100, 0), (-500, 0), (-900, -400), (-1650, -400)])

    T_OUT = ["s101", "s103", "s105", "s107", "s109", "s111", "s113"]
    T_IN = ["s114", "s112", "s110", "s108", "s106", "s104", "s102"]
    M_OUT = ["s121", "s123", "s125", "s130"]
    M_IN = ["s130", "s126", "s124", "s122"]
    U_OUT = ["s141", "s143", "s145", "s147"]
    U_IN = ["s148", "s146", "s144", "s142"]

    F.pattern("51_OM", trunk_out + marina_out, T_OUT + M_OUT, "51_OM")
    F.pattern("51_OU", trunk_out + univ_out, T_OUT + U_OUT, "51_OU")
    F.pattern("51_IM", marina_out.reversed() + trunk_in, M_IN + T_IN, "51_IM")
    F.pattern("51_IU", univ_out.reversed() + trunk_in, U_IN + T_IN, "51_IU")
    F.pattern("51_OS", Path([(2400, 0), (1200, 0)]), T_OUT[:4], "51_OS")     # short turn
    F.pattern("51_IS", Path([(1200, 0), (2400, 0)]), T_IN[3:], "51_IS")      # short turn
    express_in = [s for s in U_IN + T_IN if s not in ("s108", "s104")]
    F.pattern("51_IX", univ_out.reversed() + trunk_in, express_in, "51_IX")  # express

    heads = {"51_OM": "Marina", "51_OU": "University Ave & 3rd St", "51_IM": "Rockridge Station",
             "51_IU": "Rockridge Station", "51_OS": "40th St & Telegraph Ave",
             "51_IS": "Rockridge Station", "51_IX": "Rockridge Station (Express)"}
    dirs = {"51_OM": "0", "51_OU": "0", "51_OS": "0", "51_IM": "1", "51_IU": "1", "51_IS": "1",
            "51_IX": "1"}
    branch_dwell = {"s113": 60, "s114": 60}
    tps51 = {"s107", "s108", "s113", "s114"}

    def trip51(svc, pid, start, block=""):
        F.trip(pid, start, bus_speed(start), dict(
            route_id="51", service_id=svc, trip_id="51_%s_%s_%s" % (svc, pid[3:], tag(start)),
            trip_headsign=heads[pid], trip_short_name="", direction_id=dirs[pid], block_id=block,
            wheelchair_accessible="1", bikes_allowed="1"), dwell=branch_dwell, timepoints=tps51)

    # weekday: a departure every 15 min 06:00-21:45 alternating Marina/University,
    # then every 30 min until 24:30 (past-midnight times on the weekday service day)
    out_wd = every("0600", "2145", 15) + every("2200", "2430", 30)
    in_wd = every("0545", "2130", 15) + every("2200", "2400", 30)
    for i, s in enumerate(out_wd):
        trip51("WKDY", "51_OM" if i % 2 == 0 else "51_OU", s)
    for i, s in enumerate(in_wd):
        trip51("WKDY", "51_IM" if i % 2 == 0 else "51_IU", s)
    # short turns (peak extras), each pair run by one bus
    for blk, (o1, i1, o2, i2) in (("51-ST-AM", ("0707", "0722", "0737", "0752")),
                                  ("51-ST-PM", ("1607", "1622", "1637", "1652"))):
        trip51("WKDY", "51_OS", t(o1), blk)
        trip51("WKDY", "51_IS", t(i1), blk)
        trip51("WKDY", "51_OS", t(o2), blk)
        trip51("WKDY", "51_IS", t(i2), blk)
    # express: AM peak, University Ave & 3rd St -> Rockridge, skips s108 and s104
    for s in every("0705", "0835", 30):
        trip51("WKDY", "51_IX", s, "51-EXP")
    # weekend: every 30 min alternating branches, last outbound at 24:00
    for i, s in enumerate(every("0700", "2400", 30)):
        trip51("WKND", "51_OM" if i % 2 == 0 else "51_OU", s)
    for i, s in enumerate(every("0645", "2345", 30)):
        trip51("WKND", "51_IM" if i % 2 == 0 else "51_IU", s)

    # ---- route 8: Downtown Loop (one-way, clockwise) -----------------------
    loop8 = Path([(1000, -1800), (350, -1800), (350, -1100), (1250, -1100), (1250, -1800),
                  (1000, -1800)])
    names8 = [("s201", "Transit Center", 0), ("s202", "14th St & Clay St", 400),
              ("s203", "Jefferson St & 15th St", 800), ("s204", "Jefferson St & 19th St", 1230),
              ("s205", "20th St & Clay St", 1620), ("s206", "20th St & Franklin St", 2020),
              ("s207", "Harrison St & 19th St", 2420), ("s208", "Harrison St & 15th St", 2850)]
    for sid, name, ch in names8:
        S(sid, name, loop8.offset(ch, K), desc="Bay A" if sid == "s201" else "")
    stops8 = [s for s, _, _ in names8] + ["s201"]
    F.pattern("8_LOOP", loop8, stops8, "8_LOOP")
    for svc, starts, blk in (("WKDY", every("0600", "2140", 20), "8-WKDY-1"),
                             ("WKND", every("0800", "1940", 20), "8-WKND-1")):
        for s in starts:
            F.trip("8_LOOP", s, bus_speed(s), dict(
                route_id="8", service_id=svc, trip_id="8_%s_%s" % (svc, tag(s)),
                trip_headsign="Downtown Loop", trip_short_name="", direction_id="0",
                block_id=blk, wheelchair_accessible="1", bikes_allowed="1"),
                timepoints={"s205"})

    # ---- route 12: Lakeshore Lollipop -------------------------------------
    # trunk: Grand Ave (y = -1800) from Transit Center east to the lake,
    # clockwise one-way loop around the lake, back west along Grand Ave.
    S("s301", "Transit Center - Bay C", (1450, -1800 - K))
    S("s302", "Transit Center - Bay D", (1460, -1800 + K))
    S("s303", "Grand Ave & Harrison St", (1800, -1800 - K))
    S("s304", "Grand Ave and Harrison", (1790, -1800 + K))
    S("s305", "Grand Ave & Bay Pl", (2150, -1800 - K))
    S("s306", "Grand Ave & Bay Pl", (2150, -1800 + K))
    S("s307", "Grand Ave & Lakeshore Ave", (2500, -1800 - K))
    S("s308", "Lakeshore Ave & Grand Ave", (2512, -1800 + K))
    lake = Path([(2550, -1800), (2700, -1450), (3100, -1350), (3400, -1650), (3350, -2100),
                 (2950, -2250), (2650, -2100), (2550, -1800)])
    for sid, name, ch in (("s311", "Lakeshore Ave & Trestle Glen Rd", 500),
                          ("s312", "Lakeshore Ave & Mandana Blvd", 1150),
                          ("s313", "Lake Park Ave & Lakeshore Ave", 1750),
                          ("s314", "Lake Park Ave & Grand Ave", 2350)):
        S(sid, name, lake.offset(ch, K))
    grand_e = Path([(1450, -1800), (2550, -1800)])
    lolli = grand_e + lake + grand_e.reversed()
    stops12 = ["s301", "s303", "s305", "s307", "s311", "s312", "s313", "s314",
               "s308", "s306", "s304", "s302"]
    F.pattern("12_LOLLI", lolli, stops12, "12_LOLLI")
    for svc, starts, blk in (("WKDY", every("0630", "2130", 30), "12-WKDY-1"),
                             ("WKND", every("0800", "1900", 30), "12-WKND-1")):
        for s in starts:
            F.trip("12_LOLLI", s, bus_speed(s), dict(
                route_id="12", service_id=svc, trip_id="12_%s_%s" % (svc, tag(s)),
                trip_headsign="Lakeshore Loop", trip_short_name="", direction_id="",
                block_id=blk, wheelchair_accessible="1", bikes_allowed="1"),
                timepoints={"s307", "s308"})

    agency = [dict(agency_id="metro", agency_name="Metro Transit",
                   agency_url="https://example.org/metro", agency_timezone="America/Chicago",
                   agency_lang="en", agency_phone="555-0100")]
    routes = [
        dict(route_id="51", agency_id="metro", route_short_name="51",
             route_long_name="Rockridge – Marina / University",
             route_desc="Rockridge Station via 40th St, then either to Marina or to University Ave & 3rd St",
             route_type="3", route_url="https://example.org/metro/51", route_color="1F77B4",
             route_text_color="FFFFFF", route_sort_order="1"),
        dict(route_id="8", agency_id="metro", route_short_name="8", route_long_name="Downtown Loop",
             route_desc="Clockwise loop from Transit Center", route_type="3",
             route_url="https://example.org/metro/8", route_color="2CA02C",
             route_text_color="FFFFFF", route_sort_order="2"),
        dict(route_id="12", agency_id="metro", route_short_name="12",
             route_long_name="Lakeshore Lollipop",
             route_desc="Transit Center, Grand Ave, loop around the lake, back to Transit Center",
             route_type="3", route_url="https://example.org/metro/12", route_color="FF7F0E",
             route_text_color="000000", route_sort_order="3"),
    ]
    calendar = [["WKDY"] + WEEKDAYS + ["20260101", "20261231"],
                ["WKND"] + WEEKENDS + ["20260101", "20261231"]]
    calendar_dates = [["WKDY", "20260525", "2"], ["WKND", "20261126", "1"]]
    feed_info = dict(feed_publisher_name="Metro Transit", feed_publisher_url="https://example.org/metro",
                     feed_lang="en", feed_start_date="20260101", feed_end_date="20261231",
                     feed_version="2026.1-sample")

    expected = dict(
        agency_id="metro",
        opposite_pairs=[["s101", "s102"], ["s103", "s104"], ["s105", "s106"], ["s107", "s108"],
                        ["s113", "s114"], ["s121", "s122"], ["s123", "s124"], ["s125", "s126"],
                        ["s141", "s142"], ["s143", "s144"], ["s145", "s146"], ["s147", "s148"],
                        ["s301", "s302"], ["s303", "s304"], ["s305", "s306"], ["s307", "s308"]],
        couplet_pairs=[["s109", "s110"], ["s111", "s112"]],
        no_opposite=["s130", "s201", "s202", "s203", "s204", "s205", "s206", "s207", "s208",
                     "s311", "s312", "s313", "s314"],
        terminal_no_opposite=["s130"],
        branch_point=["s113", "s114"],
        routes={
            "51": dict(
                kind="branching",
                directions=[
                    dict(direction_id=0, name="Marina / University Ave & 3rd St",
                         origins=["s101"], terminals=["s130", "s147"],
                         stops=T_OUT + M_OUT + U_OUT,
                         branches=[dict(terminal="s130", stops=T_OUT + M_OUT),
                                   dict(terminal="s147", stops=T_OUT + U_OUT)],
                         short_turn=dict(terminal="s107", stops=T_OUT[:4])),
                    dict(direction_id=1, name="Rockridge Station",
                         origins=["s130", "s148"], terminals=["s102"],
                         stops=M_IN + U_IN + T_IN,
                         branches=[dict(origin="s130", stops=M_IN + T_IN),
                                   dict(origin="s148", stops=U_IN + T_IN)],
                         short_turn=dict(origin="s108", stops=T_IN[3:]),
                         express=dict(origin="s148", skipped=["s108", "s104"], stops=express_in)),
                ]),
            "8": dict(kind="loop", loop=True, start_end="s201", stops=stops8[:-1],
                      trip_stop_sequence=stops8),
            "12": dict(kind="lollipop", lollipop=True, direction_id_blank=True,
                       trunk_outbound=stops12[:4], loop=stops12[4:8], trunk_inbound=stops12[8:],
                       directions=[dict(direction_id=None, name="Lakeshore Loop",
                                        origins=["s301"], terminals=["s302"], stops=stops12)],
                       alternative_split=[
                           dict(name="Lakeshore (outbound + loop)", stops=stops12[:8]),
                           dict(name="Transit Center", stops=stops12[8:])]),
        })
    return F, dict(agency=agency, routes=routes, calendar=calendar, calendar_dates=calendar_dates,
                   feed_info=feed_info), expected


# --------------------------------------------------------------------------
# Bay Rail (regional rail)
# --------------------------------------------------------------------------

def build_rail():
    F = Feed(Frame(37.60, -122.38), shape_step=500.0)
    # station centres along the line, north to south
    stations = [("NG", "Northgate", (0, 0), "1"), ("OG", "Oak Grove", (800, -4000), "1"),
                ("CE", "Central", (1500, -8500), "2"), ("MS", "Mission Street", (3500, -13000), "2"),
                ("BV", "Bayview", (5200, -17000), "3"), ("SP", "Southport", (6000, -21500), "3")]
    line = Path([xy for _, _, xy, _ in stations])
    code = 7000
    for k, (sid, name, (x, y), zone) in enumerate(stations):
        prev = stations[max(k - 1, 0)][2]
        nxt = stations[min(k + 1, len(stations) - 1)][2]
        dx, dy = nxt[0] - prev[0], nxt[1] - prev[1]
        n = math.hypot(dx, dy)
        ux, uy = dx / n, dy / n             # southbound direction
        rx, ry = uy, -ux                    # right of southbound (west-ish)
        F.stop(sid, name, (x, y), zone=zone, location_type="1", wheelchair="1")
        offs = {"1": 7.0, "2": -7.0} if sid != "CE" else {"1": 5.0, "2": -5.0, "3": 14.0, "4": -14.0}
        for pc, o in offs.items():
            code += 1
            F.stop(sid + pc, name, (x + rx * o, y + ry * o), code=str(code), zone=zone,
                   parent=sid, wheelchair="1", platform=pc,
                   desc={"1": "Southbound", "2": "Northbound", "3": "Southbound express",
                         "4": "Northbound express"}[pc])
        if sid == "CE":
            F.stop("CE-E1", "Central - Main Entrance", (x - rx * 60, y - ry * 60), zone=zone,
                   location_type="2", parent="CE", wheelchair="1")
            # The airport shuttle's bus bay, 120 m east of the station, named by it.
            F.stop("CE-B", "Central", (x + 120, y), code="7100", zone=zone, parent="CE",
                   wheelchair="1", desc="Bus bay, airport shuttle")
    F.stop("AP", "Airport", (4700, -8900), code="7101", zone="2", wheelchair="1", desc="Terminal 1")

    ids = [s for s, _, _, _ in stations]
    L_SB = [s + "1" for s in ids]
    L_NB = [s + "2" for s in reversed(ids)]
    X_SB = ["NG1", "CE3", "SP1"]
    X_NB = ["SP2", "CE4", "NG2"]
    F.pattern("L_SB", line, L_SB, "L_SB", right_side=False)
    F.pattern("L_NB", line.reversed(), L_NB, "L_NB", right_side=False)
    F.pattern("X_SB", line, X_SB, "X_SB", right_side=False)
    F.pattern("X_NB", line.reversed(), X_NB, None, right_side=False)  # no shape on purpose
    # Airport shuttle: frequency-based, no shape. One template trip each way, run by frequencies.txt.
    shuttle = Path([(1620, -8500), (4700, -8900)])
    F.pattern("A_OUT", shuttle, ["CE-B", "AP"], None, right_side=False)
    F.pattern("A_IN", shuttle.reversed(), ["AP", "CE-B"], None, right_side=False)

    seq_sb = {s: k + 1 for k, s in enumerate(ids)}          # stop_sequence = station index
    seq_nb = {s: k + 1 for k, s in enumerate(reversed(ids))}

    def rtrip(pid, svc, start, num, route, head, direction, speed):
        stops = F.patterns[pid]["stops"]
        seqs = [(seq_sb if direction == "0" else seq_nb)[s[:2]] for s in stops]
        F.trip(pid, start, speed, dict(
            route_id=route, service_id=svc, trip_id="%s-%d" % (svc, num), trip_headsign=head,
            trip_short_name=str(num), direction_id=direction, block_id="",
            wheelchair_accessible="1", bikes_allowed="1"),
            dwell={s: 60 for s in stops}, stop_seqs=seqs, with_dist=F.patterns[pid]["dist"] is not None)

    for svc, loc_sb, loc_nb, exp_sb, exp_nb, base in (
            ("weekday", every("0500", "2330", 30), every("0505", "2335", 30),
             every("0615", "1915", 60), every("0645", "1945", 60), 100),
            ("weekend", every("0630", "2330", 30), every("0635", "2335", 30),
             every("0815", "1815", 60), every("0845", "1845", 60), 500)):
        for k, s in enumerate(loc_sb):
            rtrip("L_SB", svc, s, base + 1 + 2 * k, "L", "Southport", "0", 15.0)
        for k, s in enumerate(loc_nb):
            rtrip("L_NB", svc, s, base + 2 + 2 * k, "L", "Northgate", "1", 15.0)
        for k, s in enumerate(exp_sb):
            rtrip("X_SB", svc, s, base + 201 + 2 * k, "X", "Southport Express", "0", 21.0)
        for k, s in enumerate(exp_nb):
            rtrip("X_NB", svc, s, base + 202 + 2 * k, "X", "Northgate Express", "1", 21.0)

    for pid, trip_id, start, head, direction in (("A_OUT", "A-OUT", t("0500"), "Airport", "0"),
                                                 ("A_IN", "A-IN", t("0510"), "Central", "1")):
        F.trip(pid, start, 6.5, dict(
            route_id="A", service_id="weekday", trip_id=trip_id, trip_headsign=head, trip_short_name="",
            direction_id=direction, block_id="", wheelchair_accessible="1", bikes_allowed="1"), with_dist=False)
    # Outbound: exact departures 05:00, 05:20, 05:40; every 10 minutes (headway-based, times
    # estimated) 06:00-21:50; exact again 22:00 … 24:30. Inbound: every 10 minutes 05:10-22:00.
    frequencies = [["A-OUT", "05:00:00", "06:00:00", "1200", "1"],
                   ["A-OUT", "06:00:00", "22:00:00", "600", "0"],
                   ["A-OUT", "22:00:00", "25:00:00", "1800", "1"],
                   ["A-IN", "05:10:00", "22:10:00", "600", ""]]
    # Spanish names: one stop by record_id, every stop named "Northgate" by field_value, a line,
    # and the shuttle's outbound headsign.
    translations = [["stops", "stop_name", "es", "Aeropuerto", "AP", "", ""],
                    ["stops", "stop_name", "es", "Puerta Norte", "", "", "Northgate"],
                    ["stops", "stop_desc", "es", "Terminal 1", "AP", "", ""],
                    ["routes", "route_long_name", "es", "Lanzadera del aeropuerto", "A", "", ""],
                    ["trips", "trip_headsign", "es", "Aeropuerto", "", "", "Airport"]]

    agency = [dict(agency_id="bayrail", agency_name="Bay Rail", agency_url="https://example.org/bayrail",
                   agency_timezone="America/Los_Angeles", agency_lang="en", agency_phone="555-0199")]
    routes = [
        dict(route_id="L", agency_id="bayrail", route_short_name="L", route_long_name="Local",
             route_desc="All stations Northgate - Southport", route_type="2",
             route_url="https://example.org/bayrail/local", route_color="D52B1E",
             route_text_color="FFFFFF", route_sort_order="1"),
        dict(route_id="X", agency_id="bayrail", route_short_name="X", route_long_name="Express",
             route_desc="Northgate, Central, Southport only", route_type="2",
             route_url="https://example.org/bayrail/express", route_color="00843D",
             route_text_color="FFFFFF", route_sort_order="2"),
        dict(route_id="A", agency_id="bayrail", route_short_name="A", route_long_name="Airport Shuttle",
             route_desc="Central bus bay - Airport, every 10 minutes", route_type="3",
             route_url="https://example.org/bayrail/airport", route_color="6F2DA8",
             route_text_color="FFFFFF", route_sort_order="3"),
    ]
    calendar = [["weekday"] + WEEKDAYS + ["20260101", "20261231"],
                ["weekend"] + WEEKENDS + ["20260101", "20261231"]]
    feed_info = dict(feed_publisher_name="Bay Rail", feed_publisher_url="https://example.org/bayrail",
                     feed_lang="en", feed_start_date="20260101", feed_end_date="20261231",
                     feed_version="2026.1-sample")
    expected = dict(
        agency_id="bayrail",
        stations={sid: sorted(s for s in F.stops if F.stops[s]["parent_station"] == sid
                              and F.stops[s]["location_type"] == "0") for sid in ids},
        entrances={"CE": ["CE-E1"]},
        opposite_pairs=[[s + "1", s + "2"] for s in ids] + [["CE3", "CE4"]],
        no_opposite=["CE-B", "AP"],
        express_skips=["OG", "MS", "BV"],
        routes={
            "L": dict(kind="local", directions=[
                dict(direction_id=0, name="Southport", origins=["NG1"], terminals=["SP1"], stops=L_SB),
                dict(direction_id=1, name="Northgate", origins=["SP2"], terminals=["NG2"], stops=L_NB)]),
            "X": dict(kind="express", directions=[
                dict(direction_id=0, name="Southport Express", origins=["NG1"], terminals=["SP1"],
                     stops=X_SB),
                dict(direction_id=1, name="Northgate Express", origins=["SP2"], terminals=["NG2"],
                     stops=X_NB, note="trips have no shape_id")]),
            "A": dict(kind="frequency", directions=[
                dict(direction_id=0, name="Airport", origins=["CE-B"], terminals=["AP"], stops=["CE-B", "AP"],
                     weekday_runs=3 + 96 + 6),
                dict(direction_id=1, name="Central", origins=["AP"], terminals=["CE-B"], stops=["AP", "CE-B"],
                     weekday_runs=102)]),
        },
        translations=dict(es={"AP": "Aeropuerto", "NG": "Puerta Norte", "NG1": "Puerta Norte",
                              "NG2": "Puerta Norte"}))
    return F, dict(agency=agency, routes=routes, calendar=calendar, calendar_dates=None,
                   feed_info=feed_info, frequencies=frequencies, translations=translations), expected


# --------------------------------------------------------------------------
# validation
# --------------------------------------------------------------------------

def read_feed(folder):
    data = {}
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".txt"):
            continue
        raw = open(os.path.join(folder, name), "rb").read()
        assert not raw.startswith(b"\xef\xbb\xbf"), name + ": BOM"
        assert b"\r" not in raw, name + ": CR"
        text = raw.decode("utf-8")
        data[name] = list(csv.DictReader(text.splitlines()))
    return data


def secs(s):
    h, m, x = s.split(":")
    return int(h) * 3600 + int(m) * 60 + int(x)


def check_feed(folder, expected):
    d = read_feed(folder)
    errs = []
    stops = {s["stop_id"]: s for s in d["stops.txt"]}
    routes = {r["route_id"] for r in d["routes.txt"]}
    services = {c["service_id"] for c in d["calendar.txt"]}
    services |= {c["service_id"] for c in d.get("calendar_dates.txt", [])}
    shapes = {}
    for p in d.get("shapes.txt", []):
        shapes.setdefault(p["shape_id"], []).append(p)
    trips = {tr["trip_id"]: tr for tr in d["trips.txt"]}
    if len(trips) != len(d["trips.txt"]):
        errs.append("duplicate trip_id")
    for s in stops.values():
        if s["parent_station"]:
            if stops.get(s["parent_station"], {}).get("location_type") != "1":
                errs.append("bad parent %s" % s["stop_id"])
    for tr in trips.values():
        if tr["route_id"] not in routes:
            errs.append("trip %s route" % tr["trip_id"])
        if tr["service_id"] not in services:
            errs.append("trip %s service" % tr["trip_id"])
        if tr["shape_id"] and tr["shape_id"] not in shapes:
            errs.append("trip %s shape" % tr["trip_id"])
    for sid, pts in shapes.items():
        seq = [int(p["shape_pt_sequence"]) for p in pts]
        dist = [float(p["shape_dist_traveled"]) for p in pts]
        if any(b <= a for a, b in zip(seq, seq[1:])) or any(b <= a for a, b in zip(dist, dist[1:])):
            errs.append("shape %s not increasing" % sid)
    by_trip = {}
    for st in d["stop_times.txt"]:
        by_trip.setdefault(st["trip_id"], []).append(st)
        if st["trip_id"] not in trips:
            errs.append("stop_time trip %s" % st["trip_id"])
        if st["stop_id"] not in stops or stops[st["stop_id"]]["location_type"] not in ("", "0"):
            errs.append("stop_time stop %s" % st["stop_id"])
        if not st["arrival_time"] or not st["departure_time"]:
            errs.append("missing time %s" % st["trip_id"])
    for tid, rows in by_trip.items():
        seq = [int(r["stop_sequence"]) for r in rows]
        if any(b <= a for a, b in zip(seq, seq[1:])):
            errs.append("trip %s stop_sequence" % tid)
        times = []
        for r in rows:
            times += [secs(r["arrival_time"]), secs(r["departure_time"])]
        if any(b < a for a, b in zip(times, times[1:])):
            errs.append("trip %s times" % tid)
        dists = [float(r["shape_dist_traveled"]) for r in rows if r["shape_dist_traveled"]]
        if any(b <= a for a, b in zip(dists, dists[1:])):
            errs.append("trip %s dist" % tid)
        shp = trips[tid]["shape_id"]
        if dists and (not shp or dists[-1] > float(shapes[shp][-1]["shape_dist_traveled"]) + 0.05):
            errs.append("trip %s dist beyond shape" % tid)
        if rows[-1]["pickup_type"] != "1":
            errs.append("trip %s last pickup" % tid)
    for tid in trips:
        if len(by_trip.get(tid, [])) < 2:
            errs.append("trip %s has < 2 stop_times" % tid)
    windows = {}
    for f in d.get("frequencies.txt", []):
        if f["trip_id"] not in trips:
            errs.append("frequency trip %s" % f["trip_id"])
        if int(f["headway_secs"]) <= 0 or secs(f["end_time"]) <= secs(f["start_time"]):
            errs.append("frequency window %s %s holds no run" % (f["trip_id"], f["start_time"]))
        windows.setdefault(f["trip_id"], []).append((secs(f["start_time"]), secs(f["end_time"])))
    for tid, ws in windows.items():
        ws.sort()
        if any(b[0] < a[1] for a, b in zip(ws, ws[1:])):
            errs.append("frequency windows of %s overlap" % tid)
    tables = {"stops": (stops.values(), "stop_id"), "routes": (d["routes.txt"], "route_id"),
              "trips": (trips.values(), "trip_id")}
    for tr in d.get("translations.txt", []):
        rows, key = tables[tr["table_name"]]
        if tr["record_id"] and not any(r[key] == tr["record_id"] for r in rows):
            errs.append("translation of a missing %s %s" % (tr["table_name"], tr["record_id"]))
        if not tr["record_id"] and not any(r.get(tr["field_name"]) == tr["field_value"] for r in rows):
            errs.append("translation of a value no %s has: %s" % (tr["table_name"], tr["field_value"]))

    # ground truth sanity
    def dist(a, b):
        return haversine((float(stops[a]["stop_lat"]), float(stops[a]["stop_lon"])),
                         (float(stops[b]["stop_lat"]), float(stops[b]["stop_lon"])))
    served = {st["stop_id"] for st in d["stop_times.txt"]}
    for a, b in expected["opposite_pairs"]:
        m = dist(a, b)
        lo, hi = (15, 30) if expected["agency_id"] == "metro" else (8, 30)
        if not lo <= m <= hi:
            errs.append("opposite %s/%s is %.1f m" % (a, b, m))
    for a, b in expected.get("couplet_pairs", []):
        m = dist(a, b)
        if not 90 <= m <= 140:
            errs.append("couplet %s/%s is %.1f m" % (a, b, m))
    boarding = [s for s in stops if stops[s]["location_type"] in ("", "0")]
    for a in expected["no_opposite"]:
        near = min(dist(a, b) for b in boarding if b != a)
        if near < 50:
            errs.append("no_opposite %s has a stop %.1f m away" % (a, near))
    pair_ids = [s for p in expected["opposite_pairs"] + expected.get("couplet_pairs", []) for s in p]
    listed = pair_ids + expected["no_opposite"]
    if sorted(listed) != sorted(set(listed)) or set(listed) != set(boarding):
        errs.append("ground truth does not partition the boarding stops")
    # every pattern is an ordered subsequence of its expected direction
    for rid, r in expected["routes"].items():
        for tr in trips.values():
            if tr["route_id"] != rid:
                continue
            seq = [x["stop_id"] for x in by_trip[tr["trip_id"]]]
            if r.get("kind") == "loop":
                ok = seq == r["trip_stop_sequence"]
            else:
                ok = False
                for dr in r["directions"]:
                    want = dr["direction_id"]
                    have = None if tr["direction_id"] == "" else int(tr["direction_id"])
                    cands = [b["stops"] for b in dr.get("branches", [])] or [dr["stops"]]
                    if want == have and any(_subseq(seq, c) for c in cands):
                        ok = True
            if not ok:
                errs.append("trip %s pattern not in expected directions" % tr["trip_id"])
    missing = served - set(listed)
    if missing:
        errs.append("served stops missing from ground truth: %s" % sorted(missing))
    return d, errs


def _subseq(seq, full):
    it = iter(full)
    return all(s in it for s in seq)


# --------------------------------------------------------------------------

def main():
    out = {}
    report = {}
    for name, build in (("metro", build_metro), ("rail", build_rail)):
        feed, meta, expected = build()
        folder = os.path.join(HERE, name)
        report[name] = feed.write(folder, **meta)
        out[name] = expected
        if name == "metro":
            sys.dont_write_bytecode = True  # no __pycache__ in Samples/
            import kalkati_sample
            kalkati = kalkati_sample.write(feed, meta, Frame, write_csv, os.path.join(HERE, "kalkati"))
    with open(os.path.join(HERE, "expected.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump(out, f, indent=2, ensure_ascii=False)
        f.write("\n")
    for name, counts in report.items():
        print("%s: %s" % (name, ", ".join("%s=%d" % kv for kv in counts.items())))
    print("kalkati: %s" % ", ".join("%s=%d" % kv for kv in kalkati.items()))
    if "--check" in sys.argv[1:]:
        bad = 0
        for name in ("metro", "rail"):
            _, errs = check_feed(os.path.join(HERE, name), out[name])
            for e in errs:
                print("%s: ERROR %s" % (name, e))
            bad += len(errs)
            print("%s: %s" % (name, "OK" if not errs else "%d errors" % len(errs)))
        sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
