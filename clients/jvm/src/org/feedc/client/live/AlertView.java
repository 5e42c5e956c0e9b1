package org.feedc.client.live;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/// One alert as the rider sees it (docs/live.md, section 5): its texts in the rider's language,
/// cause and effect, whether it is active at the moment, and the bundle's stops and routes its
/// informed entities name.
public final class AlertView {
    /// The entity's id.
    public final String id;
    public final String header;
    public final String description;
    public final String url;
    /// The enums' names (`UNKNOWN_CAUSE`, `UNKNOWN_EFFECT` where the message gives none).
    public final String cause;
    public final String effect;
    public final boolean active;
    /// Sorted.
    public final List<String> stops;
    public final List<String> routes;

    AlertView(String id, String header, String description, String url, String cause, String effect, boolean active,
              List<String> stops, List<String> routes) {
        this.id = id;
        this.header = header;
        this.description = description;
        this.url = url;
        this.cause = cause;
        this.effect = effect;
        this.active = active;
        this.stops = stops;
        this.routes = routes;
    }

    /// Its JSON object, the doc's keys in its order.
    public Map<String, Object> json() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", id);
        out.put("header", header);
        out.put("description", description);
        out.put("url", url);
        out.put("cause", cause);
        out.put("effect", effect);
        out.put("active", active);
        out.put("stops", stops);
        out.put("routes", routes);
        return out;
    }
}
