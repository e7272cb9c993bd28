package dev.vbd.apps;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.zip.CRC32;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Embedded Jetty 12 serving loopback HTTP/1.1 load: a handler with three routes (a generated text page
 * per item, a POST that sums the numbers in its body, and 404 for anything else) on an ephemeral port
 * of 127.0.0.1, driven by {@code --threads} client threads that share one {@link HttpClient} (the JDK's,
 * keeping connections alive). The server starts once, before the first iteration.
 *
 * <p>{@code --size} is the number of requests; request {@code k} is made from {@code k} alone and the
 * threads take {@code k = t, t + threads, ...}. Self-check: every response's status and body equal what
 * the client computes for that request on its own, and the count of each kind of response adds up.
 * The printed totals (counts, bytes, a sum of per-response CRCs) do not depend on the thread count.
 */
public final class JettyServe extends Workload {

    private static final long SEED = 0x1E77_4A11L;
    private static final Corpus WORDS = new Corpus(3000, SEED);

    private Server server;
    private HttpClient client;
    private URI base;

    public static void main(String[] args) {
        new JettyServe().main("jetty", args, 2_500);
    }

    /** The page of item {@code n}: what the server sends and the client expects. */
    static String itemPage(int n, int lines) {
        StringBuilder b = new StringBuilder();
        b.append("item ").append(n).append('\n');
        long sum = 0;
        for (int i = 0; i < lines; i++) {
            int[] doc = WORDS.document(SEED, n * 64 + i, 4, 14);
            for (int w : doc) sum += w;
            b.append(i).append(": ").append(WORDS.text(doc)).append('\n');
        }
        return b.append("checksum ").append(sum).append('\n').toString();
    }

    static String sumReply(String body) {
        long sum = 0;
        int count = 0;
        for (String t : body.split(" ")) {
            if (!t.isEmpty()) {
                sum += Long.parseLong(t);
                count++;
            }
        }
        return "count=" + count + " sum=" + sum + "\n";
    }

    private static final class Routes extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            String path = Request.getPathInContext(request);
            String reply;
            int status = 200;
            if (path.startsWith("/item/") && HttpMethod.GET.is(request.getMethod())) {
                Fields query = Request.extractQueryParameters(request);
                int lines = Integer.parseInt(query.getValue("lines"));
                reply = itemPage(Integer.parseInt(path.substring("/item/".length())), lines);
            } else if (path.equals("/sum") && HttpMethod.POST.is(request.getMethod())) {
                reply = sumReply(Content.Source.asString(request, StandardCharsets.UTF_8));
            } else {
                status = 404;
                reply = "no route for " + request.getMethod() + " " + path + "\n";
            }
            response.setStatus(status);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
            Content.Sink.write(response, true, reply, callback);
            return true;
        }
    }

    @Override
    protected void setUp(Options options) throws Exception {
        QueuedThreadPool pool = new QueuedThreadPool(Math.max(8, 2 * options.threads() + 4), 4);
        pool.setName("jetty");
        server = new Server(pool);
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Routes());
        server.start();
        base = URI.create("http://127.0.0.1:" + connector.getLocalPort());
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(30)).build();
    }

    @Override
    protected void tearDown() throws Exception {
        if (server != null) server.stop();
    }

    /** Totals of one client thread's responses. */
    private record Tally(long items, long sums, long missing, long bytes, long crcs) {}

    @Override
    protected String iteration(Options options, int index) throws Exception {
        int size = options.size();
        int threads = options.threads();
        List<Tally> tallies = inParallel(threads, threads, t -> {
            long items = 0, sums = 0, missing = 0, bytes = 0, crcs = 0;
            for (int k = t; k < size; k += threads) {
                Random r = new Random(SEED + k);
                HttpRequest request;
                String expected;
                int expectedStatus = 200;
                int kind = k % 16;
                if (kind < 11) {
                    int lines = 2 + r.nextInt(30);
                    request = HttpRequest.newBuilder(base.resolve("/item/" + k + "?lines=" + lines)).GET().build();
                    expected = itemPage(k, lines);
                    items++;
                } else if (kind < 15) {
                    StringBuilder body = new StringBuilder();
                    int numbers = 1 + r.nextInt(200);
                    for (int i = 0; i < numbers; i++) body.append(r.nextInt(1_000_000) - 500_000).append(' ');
                    request = HttpRequest.newBuilder(base.resolve("/sum"))
                            .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build();
                    expected = sumReply(body.toString());
                    sums++;
                } else {
                    request = HttpRequest.newBuilder(base.resolve("/nothing/" + k)).GET().build();
                    expected = "no route for GET /nothing/" + k + "\n";
                    expectedStatus = 404;
                    missing++;
                }
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                check(response.statusCode() == expectedStatus, request.method() + " " + request.uri() + ": status "
                        + response.statusCode() + ", expected " + expectedStatus);
                check(response.body().equals(expected), request.method() + " " + request.uri() + ": body\n"
                        + response.body() + "expected\n" + expected);
                byte[] b = response.body().getBytes(StandardCharsets.UTF_8);
                CRC32 crc = new CRC32();
                crc.update(b);
                bytes += b.length;
                crcs += crc.getValue();
            }
            return new Tally(items, sums, missing, bytes, crcs);
        });
        long items = 0, sums = 0, missing = 0, bytes = 0, crcs = 0;
        for (Tally t : tallies) {
            items += t.items();
            sums += t.sums();
            missing += t.missing();
            bytes += t.bytes();
            crcs += t.crcs();
        }
        check(items + sums + missing == size, "responses " + (items + sums + missing) + " == requests " + size);
        return String.format(Locale.ROOT, "jetty: requests=%d item_pages=%d sums=%d not_found=%d body_bytes=%d crc_sum=%d%n",
                size, items, sums, missing, bytes, crcs);
    }
}
