package org.feedc.client;

/// Why an update did not complete; the database is as it was. The message is one line, worded
/// as the Python reference client words it (clients/python/feedc_client.py).
public class UpdateException extends Exception {
    private static final long serialVersionUID = 1L;

    public UpdateException(String message) {
        super(message);
    }
}
