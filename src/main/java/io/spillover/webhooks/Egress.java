package io.spillover.webhooks;

import io.spillover.shared.Violation;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * Where a hook may send, checked when it is saved and again before every delivery, on the addresses the name
 * resolves to then: a name that resolved to a public address when the hook was made and to the metadata
 * service's now (DNS rebinding) is refused. The delivery then connects to the address checked here, so the
 * name is not looked up a second time between the check and the connection.
 * <p>
 * Only {@code https} to public addresses by default; plain {@code http} and private, loopback or link-local
 * addresses only for the hosts {@code spillover.webhooks.allowed-hosts} names.
 */
@Component
class Egress {

    static final int MAX_URL = 2_000;
    static final String FIELD = "url";

    private final WebhookProperties properties;
    private final HostResolver resolver;

    Egress(WebhookProperties properties, HostResolver resolver) {
        this.properties = properties;
        this.resolver = resolver;
    }

    /** A checked destination: the URL's parts and the addresses to connect to, in the resolver's order. */
    record Target(URI uri, String host, int port, boolean tls, List<InetAddress> addresses) {
    }

    /** A destination refused; the message says why, in words for the hook's owner. */
    static final class Refused extends Exception {
        Refused(String message) {
            super(message);
        }
    }

    /** The URL's violations for a hook being saved (none: it may be saved). */
    List<Violation> check(String url) {
        try {
            target(url, false);
            return List.of();
        } catch (Refused refused) {
            return List.of(new Violation(FIELD, refused.getMessage()));
        }
    }

    /** The destination to deliver to now, resolved and checked. */
    Target resolve(String url) throws Refused {
        return target(url, true);
    }

    private Target target(String url, boolean delivering) throws Refused {
        URI uri = parse(url);
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        String host = host(uri);
        boolean allowed = properties.allowedHosts().contains(host);
        boolean tls = scheme.equals("https");
        int port = uri.getPort() == -1 ? (tls ? 443 : 80) : uri.getPort();
        if (!allowed) {
            Optional<InetAddress> literal = literal(host);
            if (literal.isPresent()) {
                refuseUnlessPublic(host, literal.get());
            }
            if (!tls) {
                throw new Refused("must be https: plain http only to hosts that spillover.webhooks.allowed-hosts lists");
            }
            if (!properties.allowPublicHosts()) {
                throw new Refused("this server sends to the hosts spillover.webhooks.allowed-hosts lists only ("
                        + String.join(", ", properties.allowedHosts()) + ")");
            }
        }
        if (allowed && !delivering) {
            return new Target(uri, host, port, tls, List.of()); // any address is fine; looked up when delivering
        }
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(host);
        } catch (UnknownHostException e) {
            throw new Refused("the host " + host + " cannot be resolved");
        }
        if (addresses == null || addresses.length == 0) {
            throw new Refused("the host " + host + " cannot be resolved");
        }
        if (!allowed) {
            for (InetAddress address : addresses) {
                refuseUnlessPublic(host, address);
            }
        }
        return new Target(uri, host, port, tls, List.of(addresses));
    }

    private static void refuseUnlessPublic(String host, InetAddress address) throws Refused {
        Optional<String> why = Addresses.notPublic(address);
        if (why.isPresent()) {
            boolean written = host.equals(address.getHostAddress()) || literal(host).filter(address::equals).isPresent();
            String named = written ? host : host + " resolves to " + address.getHostAddress() + ", which";
            throw new Refused(named + " is " + why.get() + ": hooks reach such addresses only on hosts that"
                    + " spillover.webhooks.allowed-hosts lists");
        }
    }

    private static URI parse(String url) throws Refused {
        if (url == null || url.isBlank()) {
            throw new Refused("must be an https URL");
        }
        if (url.length() > MAX_URL) {
            throw new Refused("must be at most " + MAX_URL + " characters");
        }
        URI uri;
        try {
            uri = new URI(url.trim());
        } catch (URISyntaxException e) {
            throw new Refused("is not a URL: " + e.getReason());
        }
        if (!uri.isAbsolute() || uri.isOpaque()) {
            throw new Refused("must be an absolute https URL, such as https://ci.example.com/hooks/spillover");
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !scheme.equals("http")) {
            throw new Refused("must be an https URL, not " + scheme);
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new Refused("must name a host");
        }
        if (uri.getRawUserInfo() != null) {
            throw new Refused("must not carry a user name or password");
        }
        if (uri.getRawFragment() != null) {
            throw new Refused("must not have a fragment (#...)");
        }
        return uri;
    }

    /** The URL's host as allowed-hosts names it: lower case, an IPv6 literal without its brackets. */
    static String host(URI uri) {
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** The address a host written as an address stands for (looked up without DNS); empty for a name. */
    private static Optional<InetAddress> literal(String host) {
        if (!host.matches("[0-9.]+") && !host.contains(":")) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByName(host));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }
}
