package io.spillover.webhooks;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;

/**
 * Which addresses a hook may not reach unless its host is allowed by name: anything that is not a public
 * unicast address. IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by it.
 */
final class Addresses {

    private record Range(byte[] prefix, int bits, String what) {
        boolean contains(byte[] address) {
            if (address.length != prefix.length) {
                return false;
            }
            for (int bit = 0; bit < bits; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((address[bit / 8] & mask) != (prefix[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }

    private static final List<Range> RANGES = List.of(
            range("0.0.0.0", 8, "a 'this network' address (0.0.0.0/8)"),
            range("10.0.0.0", 8, "a private address (10.0.0.0/8)"),
            range("100.64.0.0", 10, "a carrier-grade NAT address (100.64.0.0/10)"),
            range("127.0.0.0", 8, "a loopback address (127.0.0.0/8)"),
            range("169.254.0.0", 16, "a link-local address (169.254.0.0/16, where clouds serve instance metadata)"),
            range("172.16.0.0", 12, "a private address (172.16.0.0/12)"),
            range("192.0.0.0", 24, "an IETF protocol address (192.0.0.0/24)"),
            range("192.0.2.0", 24, "a documentation address (192.0.2.0/24)"),
            range("192.88.99.0", 24, "a 6to4 relay address (192.88.99.0/24)"),
            range("192.168.0.0", 16, "a private address (192.168.0.0/16)"),
            range("198.18.0.0", 15, "a benchmarking address (198.18.0.0/15)"),
            range("198.51.100.0", 24, "a documentation address (198.51.100.0/24)"),
            range("203.0.113.0", 24, "a documentation address (203.0.113.0/24)"),
            range("224.0.0.0", 4, "a multicast address (224.0.0.0/4)"),
            range("240.0.0.0", 4, "a reserved or broadcast address (240.0.0.0/4)"),
            range("::", 128, "the unspecified address (::)"),
            range("::1", 128, "a loopback address (::1)"),
            range("100::", 64, "a discard address (100::/64)"),
            range("2001::", 23, "an IETF protocol address (2001::/23)"),
            range("2001:db8::", 32, "a documentation address (2001:db8::/32)"),
            range("fc00::", 7, "a unique local address (fc00::/7)"),
            range("fe80::", 10, "a link-local address (fe80::/10)"),
            range("fec0::", 10, "a site-local address (fec0::/10)"),
            range("ff00::", 8, "a multicast address (ff00::/8)"));

    private static final Range MAPPED = new Range(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff,
            0, 0, 0, 0}, 96, "");
    private static final Range COMPATIBLE = range("::", 96, "");
    private static final Range NAT64 = range("64:ff9b::", 96, "");
    private static final Range SIX_TO_FOUR = range("2002::", 16, "");

    private Addresses() {
    }

    /** Why a hook may not reach this address unless its host is allowed; empty for a public unicast address. */
    static Optional<String> notPublic(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (address instanceof Inet6Address) {
            if (MAPPED.contains(bytes) || NAT64.contains(bytes)) {
                return notPublic(v4(bytes, 12));
            }
            if (SIX_TO_FOUR.contains(bytes)) {
                return notPublic(v4(bytes, 2));
            }
            // ::a.b.c.d (deprecated), but :: and ::1 themselves
            if (COMPATIBLE.contains(bytes) && ((bytes[12] | bytes[13] | bytes[14]) != 0 || (bytes[15] & 0xff) > 1)) {
                return notPublic(v4(bytes, 12));
            }
        }
        return RANGES.stream().filter(r -> r.contains(bytes)).map(Range::what).findFirst();
    }

    private static InetAddress v4(byte[] bytes, int from) {
        try {
            return Inet4Address.getByAddress(new byte[] {bytes[from], bytes[from + 1], bytes[from + 2], bytes[from + 3]});
        } catch (UnknownHostException e) {
            throw new IllegalStateException("four bytes are an IPv4 address", e);
        }
    }

    private static Range range(String address, int bits, String what) {
        try {
            return new Range(InetAddress.getByName(address).getAddress(), bits, what);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("not an address literal: " + address, e);
        }
    }
}
