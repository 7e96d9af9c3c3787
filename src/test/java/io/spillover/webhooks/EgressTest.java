package io.spillover.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spillover.shared.Violation;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Where a hook may point, checked when it is saved and again before each delivery, table by table. The resolver
 * is the test's: no name is looked up and nothing is connected to.
 */
class EgressTest {

    /** A resolver that answers each name with the next of the addresses it was given for it. */
    static final class Resolver implements HostResolver {
        private final Map<String, Deque<String>> answers;

        Resolver(Map<String, List<String>> answers) {
            this.answers = new java.util.HashMap<>();
            answers.forEach((host, addresses) -> this.answers.put(host, new ArrayDeque<>(addresses)));
        }

        @Override
        public InetAddress[] resolve(String host) throws UnknownHostException {
            Deque<String> next = answers.get(host);
            if (next == null || next.isEmpty()) {
                throw new UnknownHostException(host);
            }
            String address = next.size() > 1 ? next.poll() : next.peek();
            return new InetAddress[] {InetAddress.getByName(address)};
        }
    }

    private static Egress egress(Map<String, List<String>> dns, String... allowedHosts) {
        var properties = new WebhookProperties(List.of(allowedHosts), true, null, null, null, null, null, null);
        return new Egress(properties, new Resolver(dns));
    }

    @Test
    void theMetadataServiceLoopbackAndPrivateAddressesAreRefusedByName() {
        Egress egress = egress(Map.of(), "127.0.0.1");
        Map<String, String> refused = Map.ofEntries(
                Map.entry("http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a link-local address"),
                Map.entry("https://169.254.169.254/", "link-local"),
                Map.entry("https://127.0.0.2/hook", "127.0.0.2 is a loopback address"),
                Map.entry("https://[::1]/hook", "::1 is a loopback address"),
                Map.entry("https://10.1.2.3/hook", "10.1.2.3 is a private address"),
                Map.entry("https://172.20.0.1/hook", "a private address (172.16.0.0/12)"),
                Map.entry("https://192.168.1.10/hook", "a private address (192.168.0.0/16)"),
                Map.entry("https://100.64.0.1/hook", "carrier-grade NAT"),
                Map.entry("https://0.0.0.0/hook", "'this network'"),
                Map.entry("https://[fd00::1]/hook", "unique local"),
                Map.entry("https://[fe80::1]/hook", "link-local"),
                Map.entry("https://[::ffff:169.254.169.254]/", "link-local"),
                Map.entry("https://[64:ff9b::a9fe:a9fe]/", "link-local"),
                Map.entry("https://[2002:a9fe:a9fe::1]/", "link-local"),
                Map.entry("https://224.0.0.1/", "multicast"),
                Map.entry("http://example.com/hook", "must be https"),
                Map.entry("ftp://example.com/hook", "must be an https URL, not ftp"),
                Map.entry("https://user:pass@example.com/", "user name or password"),
                Map.entry("https://example.com/#frag", "fragment"),
                Map.entry("/relative", "absolute"),
                Map.entry("not a url", "is not a URL"),
                Map.entry("https://nowhere.invalid/", "cannot be resolved"));
        refused.forEach((url, why) -> assertThat(egress.check(url)).as(url)
                .singleElement().satisfies(v -> {
                    assertThat(v.field()).isEqualTo("url");
                    assertThat(v.message()).contains(why);
                }));
    }

    @Test
    void aNameThatResolvesToAPrivateAddressIsRefusedAndAnAllowedHostMayBePlainHttpAndPrivate() {
        Egress egress = egress(Map.of("intranet.example.com", List.of("10.0.0.7"),
                "hooks.example.com", List.of("93.184.216.34"), "localhost", List.of("127.0.0.1")), "localhost");

        assertThat(egress.check("https://intranet.example.com/hook")).extracting(Violation::message)
                .singleElement().asString().contains("intranet.example.com resolves to 10.0.0.7, which is a private address");
        assertThat(egress.check("https://hooks.example.com/hook")).isEmpty();
        assertThat(egress.check("http://localhost:8080/hook")).isEmpty();
        assertThat(egress.check("http://LOCALHOST:8080/hook")).isEmpty();
    }

    @Test
    void aNameThatResolvesElsewhereAtDeliveryIsRefusedThenDnsRebindingCannotReachTheMetadataService()
            throws Exception {
        // public when the hook is saved; the metadata service's address when it is delivered
        Egress egress = egress(Map.of("rebind.example.com", List.of("93.184.216.34", "169.254.169.254")));

        assertThat(egress.check("https://rebind.example.com/hook")).isEmpty();
        assertThatThrownBy(() -> egress.resolve("https://rebind.example.com/hook"))
                .isInstanceOf(Egress.Refused.class)
                .hasMessageContaining("rebind.example.com resolves to 169.254.169.254, which is a link-local address");
    }

    @Test
    void aDeliveryConnectsToTheAddressesItChecked() throws Exception {
        Egress egress = egress(Map.of("hooks.example.com", List.of("93.184.216.34")));

        Egress.Target target = egress.resolve("https://hooks.example.com:8443/in?x=1");

        assertThat(target.addresses()).containsExactly(InetAddress.getByName("93.184.216.34"));
        assertThat(target.host()).isEqualTo("hooks.example.com");
        assertThat(target.port()).isEqualTo(8443);
        assertThat(target.tls()).isTrue();
    }

    @Test
    void aServerThatSendsOnlyToAllowedHostsRefusesEveryOtherWithoutLookingItUp() {
        var properties = new WebhookProperties(List.of("127.0.0.1"), false, null, null, null, null, null, null);
        Egress egress = new Egress(properties, host -> {
            throw new AssertionError("looked up " + host);
        });

        assertThat(egress.check("https://hooks.example.com/")).extracting(Violation::message).singleElement()
                .asString().contains("spillover.webhooks.allowed-hosts lists only (127.0.0.1)");
        assertThat(egress.check("http://127.0.0.1:9/")).isEmpty();
    }

    @Test
    void theDelayBeforeARetryDoublesUpToItsMaximumLessUpToHalf() {
        for (int attempts = 0; attempts < 12; attempts++) {
            long expected = Math.min(5_000L << Math.min(attempts, 20), 3_600_000L);
            long delay = Dispatcher.delay(attempts, java.time.Duration.ofSeconds(5), java.time.Duration.ofHours(1))
                    .toMillis();
            assertThat(delay).as("after %d attempts", attempts).isBetween(expected / 2, expected);
        }
    }

    @Test
    void aGlobOfJobNamesBecomesALikePatternWithItsOwnCharactersEscaped() {
        assertThat(Outbox.likePattern("nightly-*")).isEqualTo("nightly-%");
        assertThat(Outbox.likePattern("run_?%")).isEqualTo("run\\__\\%");
        assertThat(Outbox.likePattern("*")).isEqualTo("%");
    }
}
