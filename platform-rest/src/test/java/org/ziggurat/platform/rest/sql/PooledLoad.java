package org.ziggurat.platform.rest.sql;

import io.vertx.mutiny.sqlclient.Pool;
import org.awaitility.Awaitility;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;

/** The pooled tests' load: reads and writes of a probe from 8 callers, in bursts on new connections. */
final class PooledLoad {

    private PooledLoad() {
    }

    /** What a load saw: the statuses, and the ids of the acknowledged writes. */
    record Seen(Map<Integer, Integer> statuses, List<Long> written) {
    }

    /**
     * Bursts of reads and writes from 8 callers; between them the pool retires every connection
     * (idle timeout and lifetime of a second), so that each burst takes new ones.
     */
    static Seen run(HttpClient http, URI target, Pool pool, int bursts) throws Exception {
        Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
        List<Long> written = Collections.synchronizedList(new ArrayList<>());
        ExecutorService callers = Executors.newFixedThreadPool(8);
        try {
            for (int burst = 0; burst < bursts; burst++) {
                List<Future<?>> calls = new ArrayList<>();
                for (int i = 0; i < 40; i++) {
                    boolean write = i % 2 == 0;
                    String body = "note " + burst + "-" + i;
                    calls.add(callers.submit(() -> {
                        HttpRequest request = write
                                ? HttpRequest.newBuilder(target).POST(HttpRequest.BodyPublishers.ofString(body)).build()
                                : HttpRequest.newBuilder(target).GET().build();
                        HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
                        statuses.merge(answer.statusCode(), 1, Integer::sum);
                        Matcher id = PooledConnectionsTest.ID.matcher(answer.body());
                        if (write && answer.statusCode() == 200 && id.find()) {
                            written.add(Long.parseLong(id.group(1)));
                        }
                        return null;
                    }));
                }
                for (Future<?> call : calls) {
                    call.get(30, TimeUnit.SECONDS);
                }
                // Until the pool has retired every connection of the burst: the next one opens new ones.
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> pool.size() == 0);
            }
        } finally {
            callers.shutdownNow();
        }
        return new Seen(statuses, written);
    }
}
