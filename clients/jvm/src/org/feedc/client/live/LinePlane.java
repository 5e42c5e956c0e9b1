package org.feedc.client.live;

import java.util.ArrayList;
import java.util.List;

/// A line (a shape, or a trip's stops in order) on the local plane of docs/live.md, section 5:
/// x = Δlon · 111,320 · cos(lat of its first point), y = Δlat · 111,320, in metres from its
/// first point; distances along it summed over its segments. A point is snapped to the nearest
/// point of the segments from a given one on (ties: the first).
final class LinePlane {
    private static final double METRES_PER_DEGREE = 111_320;

    private final double lat0;
    private final double lon0;
    private final double scale;
    private final double[] x;
    private final double[] y;
    /// The distance along the line to each point.
    private final double[] along;

    /// Where a point falls on the line: its segment and its distance along the line.
    static final class Snap {
        final int segment;
        final double distance;

        Snap(int segment, double distance) {
            this.segment = segment;
            this.distance = distance;
        }
    }

    /// The line through `points` ({lat, lon} each, at least one).
    LinePlane(List<double[]> points) {
        lat0 = points.get(0)[0];
        lon0 = points.get(0)[1];
        scale = METRES_PER_DEGREE * Math.cos(Math.toRadians(lat0));
        int n = points.size();
        x = new double[n];
        y = new double[n];
        along = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = (points.get(i)[1] - lon0) * scale;
            y[i] = (points.get(i)[0] - lat0) * METRES_PER_DEGREE;
            if (i > 0) {
                along[i] = along[i - 1] + Math.hypot(x[i] - x[i - 1], y[i] - y[i - 1]);
            }
        }
    }

    /// The line's length in metres.
    double length() {
        return along[along.length - 1];
    }

    /// How many segments it has (points − 1).
    int segments() {
        return x.length - 1;
    }

    /// The point (`lat`, `lon`) snapped to the nearest point of segments `from` and after.
    Snap snap(double lat, double lon, int from) {
        double px = (lon - lon0) * scale;
        double py = (lat - lat0) * METRES_PER_DEGREE;
        if (segments() < 1) {
            return new Snap(0, 0);
        }
        int best = -1;
        double bestSquare = Double.POSITIVE_INFINITY;
        double bestDistance = 0;
        for (int s = Math.max(0, Math.min(from, segments() - 1)); s < segments(); s++) {
            double dx = x[s + 1] - x[s];
            double dy = y[s + 1] - y[s];
            double square = dx * dx + dy * dy;
            double t = square == 0 ? 0 : ((px - x[s]) * dx + (py - y[s]) * dy) / square;
            t = Math.max(0, Math.min(1, t));
            double ex = x[s] + t * dx - px;
            double ey = y[s] + t * dy - py;
            double d = ex * ex + ey * ey;
            if (d < bestSquare) {
                bestSquare = d;
                best = s;
                bestDistance = along[s] + t * Math.sqrt(square);
            }
        }
        return new Snap(best, bestDistance);
    }

    /// The points of an encoded polyline (Google's algorithm, precision 1e-5), {lat, lon} each;
    /// what follows a truncated value is dropped.
    static List<double[]> decode(String polyline) {
        List<double[]> points = new ArrayList<>();
        int index = 0;
        long lat = 0;
        long lon = 0;
        int length = polyline.length();
        while (index < length) {
            long[] value = new long[2];
            for (int k = 0; k < 2; k++) {
                long result = 0;
                int shift = 0;
                int b;
                do {
                    if (index >= length || shift > 60) {
                        return points;
                    }
                    b = polyline.charAt(index++) - 63;
                    result |= (long) (b & 0x1f) << shift;
                    shift += 5;
                } while (b >= 0x20);
                value[k] = (result & 1) != 0 ? ~(result >> 1) : (result >> 1);
            }
            lat += value[0];
            lon += value[1];
            points.add(new double[] {lat / 1e5, lon / 1e5});
        }
        return points;
    }
}
