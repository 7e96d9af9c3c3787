package io.spillover.webhooks;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Looks a host name up: the system's resolver, or a test's. */
@FunctionalInterface
public interface HostResolver {

    InetAddress[] resolve(String host) throws UnknownHostException;
}
