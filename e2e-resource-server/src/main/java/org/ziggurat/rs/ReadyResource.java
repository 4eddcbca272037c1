package org.ziggurat.rs;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/** Answers once the archive listens: what the e2e tests wait for after starting it. */
@Path("/ready")
public class ReadyResource {

    @GET
    public String ready() {
        return "ready";
    }
}
