package org.feedc.client.live;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/// A line (a shape, or a trip's stops in order) on the local plane of docs/live.md, section 5:
/// x = Δlon · 111,320 · cos(lat of its first point), y = Δlat · 111,320, in metres from its
/// first point; distances along it summed over its segments. A point is snapped to the nearest
/// point of the segments from a given one on (ties: the first). The arithmetic is the Swift
/// client's (LineGeometry), step for step.
final class LinePlane {
    private static final double METRES_PER_DEGREE = 111_320;

    private final double[] lat;
    private final double[] lon;
    private final double scale;
    private final double[] x;
    private final double[] y;
    /// The distance along the line to each point.
    private final double[] along;

    /// Where a point falls on the line: its segment, its distance along the line, and the point
    /// itself (latitude and longitude).
    static final class Snap {
        final int segment;
        final double distance;
        final double lat;
        final double lon;

        Snap(int segment, double distance, double lat, double lon) {
            this.segment = segment;
            this.distance = distance;
            this.lat = lat;
            this.lon = lon;
        }
    }

    /// The line through `points` ({lat, lon} each, at least one).
    LinePlane(List<double[]> points) {
        int n = points.size();
        lat = new double[n];
        lon = new double[n];
        for (int i = 0; i < n; i++) {
            lat[i] = points.get(i)[0];
            lon[i] = points.get(i)[1];
        }
        scale = Math.cos(lat[0] * Math.PI / 180);
        x = new double[n];
        y = new double[n];
        along = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = (lon[i] - lon[0]) * METRES_PER_DEGREE * scale;
            y[i] = (lat[i] - lat[0]) * METRES_PER_DEGREE;
            if (i > 0) {
                double dx = x[i] - x[i - 1];
                double dy = y[i] - y[i - 1];
                along[i] = along[i - 1] + Math.sqrt(dx * dx + dy * dy);
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

    /// The point (`pointLat`, `pointLon`) snapped to the nearest point of segments `from` and
    /// after; a line of one point snaps to it.
    Snap snap(double pointLat, double pointLon, int from) {
        if (segments() < 1) {
            return new Snap(0, 0, lat[0], lon[0]);
        }
        double px = (pointLon - lon[0]) * METRES_PER_DEGREE * scale;
        double py = (pointLat - lat[0]) * METRES_PER_DEGREE;
        Snap best = null;
        double bestSquare = 0;
        for (int s = Math.max(0, Math.min(from, segments() - 1)); s < segments(); s++) {
            double dx = x[s + 1] - x[s];
            double dy = y[s + 1] - y[s];
            double square = dx * dx + dy * dy;
            double t = square > 0 ? Math.max(0, Math.min(1, ((px - x[s]) * dx + (py - y[s]) * dy) / square)) : 0;
            double sx = x[s] + t * dx;
            double sy = y[s] + t * dy;
            double d = (px - sx) * (px - sx) + (py - sy) * (py - sy);
            if (best == null || d < bestSquare) {
                bestSquare = d;
                best = new Snap(s, along[s] + t * (along[s + 1] - along[s]), lat[s] + t * (lat[s + 1] - lat[s]),
                        lon[s] + t * (lon[s + 1] - lon[s]));
            }
        }
        return best;
    }

    /// The points of an encoded polyline (Google's algorithm, precision 1e-5), {lat, lon} each,
    /// read over its UTF-8 bytes: a byte outside the alphabet, a value over 7 chunks or a
    /// truncated one ends the list (as the Swift client's EncodedPolyline.decode).
    static List<double[]> decode(String polyline) {
        byte[] bytes = polyline.getBytes(StandardCharsets.UTF_8);
        List<double[]> points = new ArrayList<>();
        int[] index = {0};
        long lat = 0;
        long lon = 0;
        while (true) {
            Long dlat = next(bytes, index);
            Long dlon = dlat == null ? null : next(bytes, index);
            if (dlon == null) {
                return points;
            }
            lat += dlat;
            lon += dlon;
            points.add(new double[] {lat / 1e5, lon / 1e5});
        }
    }

    private static Long next(byte[] bytes, int[] index) {
        long result = 0;
        int shift = 0;
        while (index[0] < bytes.length) {
            int chunk = (bytes[index[0]++] & 0xff) - 63;
            if (chunk < 0 || chunk > 63 || shift >= 35) {
                return null;
            }
            result |= (long) (chunk & 0x1f) << shift;
            shift += 5;
            if (chunk < 0x20) {
                return (result & 1) != 0 ? ~(result >> 1) : result >> 1;
            }
        }
        return null;
    }
}
