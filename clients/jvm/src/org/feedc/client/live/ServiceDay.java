package org.feedc.client.live;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/// GTFS service days in an agency's time zone (docs/bundle-format.md, "Next departures at a
/// stop"): a service day starts at local noon minus 12 hours (midnight, except on the two days a
/// year clocks change), and GTFS times count seconds from it. Instants are epoch seconds.
public final class ServiceDay {
    private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssXXX");
    /// The instants every zone writes as a date of the years 1 to 9999 (as the Python client's
    /// `iso`): 0001-01-02T00:00:00Z to 9999-12-31T00:00:00Z.
    private static final long FIRST_INSTANT = -62_135_596_800L + 86_400;
    private static final long LAST_INSTANT = 253_402_214_400L;

    private ServiceDay() {
    }

    /// The start of service day `date` (`YYYYMMDD`) in `zone`.
    public static long start(int date, ZoneId zone) {
        ZonedDateTime noon = ZonedDateTime.of(date / 10000, date / 100 % 100, date % 100, 12, 0, 0, 0, zone);
        return noon.toEpochSecond() - 12 * 3600;
    }

    /// The service date of the moment `epoch`: its calendar date in `zone`, `YYYYMMDD`.
    public static int date(long epoch, ZoneId zone) {
        LocalDate day = Instant.ofEpochSecond(epoch).atZone(zone).toLocalDate();
        return yyyymmdd(day);
    }

    /// The day before `date`.
    public static int previous(int date) {
        return yyyymmdd(LocalDate.of(date / 10000, date / 100 % 100, date % 100).minusDays(1));
    }

    /// Whether `text` is a valid `YYYYMMDD` date; its value, else -1.
    public static int parseDate(String text) {
        if (text == null || !text.matches("[0-9]{8}")) {
            return -1;
        }
        int date = Integer.parseInt(text);
        try {
            LocalDate.of(date / 10000, date / 100 % 100, date % 100);
        } catch (java.time.DateTimeException error) {
            return -1;
        }
        return date;
    }

    /// A GTFS time `HH:MM:SS` (hours may pass 24) in seconds, else -1.
    public static long parseTime(String text) {
        if (text == null || !text.matches("[0-9]{1,3}:[0-5][0-9]:[0-5][0-9]")) {
            return -1;
        }
        String[] parts = text.split(":");
        return Long.parseLong(parts[0]) * 3600 + Long.parseLong(parts[1]) * 60 + Long.parseLong(parts[2]);
    }

    /// `:date`, `:after` and `:previous_after` of the `next_departures` query for the moment `epoch`.
    public static long[] parameters(long epoch, ZoneId zone) {
        int date = date(epoch, zone);
        return new long[] {date, epoch - start(date, zone), epoch - start(previous(date), zone)};
    }

    /// A local time of `zone` (`YYYY-MM-DDTHH:MM:SS`) as epoch seconds (a time clocks skip is
    /// moved forward by the gap; one they pass twice is the earlier).
    public static long parseLocal(String text, ZoneId zone) {
        return LocalDateTime.parse(text).atZone(zone).toEpochSecond();
    }

    /// The moment `epoch` in ISO 8601 with `zone`'s offset: `2024-02-10T00:31:48-05:00` (`Z` for
    /// UTC, as Foundation writes it); null for an instant past the years 1 to 9999.
    public static String iso(long epoch, ZoneId zone) {
        if (epoch < FIRST_INSTANT || epoch > LAST_INSTANT) {
            return null;
        }
        return OffsetDateTime.ofInstant(Instant.ofEpochSecond(epoch), zone).format(ISO);
    }

    private static int yyyymmdd(LocalDate day) {
        return day.getYear() * 10000 + day.getMonthValue() * 100 + day.getDayOfMonth();
    }
}
