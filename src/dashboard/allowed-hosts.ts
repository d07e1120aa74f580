/**
 * The `Host` header check that defends a server without authentication (the dashboard, a tokenless `crucible
 * serve`) against DNS rebinding: a page on `evil.example` whose name the attacker later points at 127.0.0.1 makes
 * the victim's browser send requests to the local server that the same-origin policy lets the page read, but the
 * browser still names the attacker's host in `Host`. So only requests whose `Host` is an IP address (a browser on
 * an IP-address origin is not on the attacker's name), `localhost` or a `*.localhost` name (RFC 6761 §6.3: they
 * resolve to loopback only), or a name the operator allowed are served; anything else is refused before a route
 * runs. (The same rule as webpack-dev-server's and Vite's `allowedHosts`, restated here.)
 *
 * Allowed names: exact host names (`crucible.internal`), a leading dot for a domain and its subdomains
 * (`.corp.example`), or `*` to turn the check off (then something else must authenticate requests).
 */
import { isIP } from 'node:net';

/** The host name of a `Host` header (lowercase, port and a trailing dot removed; IPv6 without brackets), or null. */
export function hostName(header: string): string | null {
  const value = header.trim().toLowerCase();
  if (value === '') return null;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end < 0 ? null : value.slice(1, end);
  }
  const colon = value.indexOf(':');
  const name = colon < 0 ? value : value.slice(0, colon);
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/**
 * Whether a request with this `Host` header may be served (see the module comment). A request without a `Host`
 * header (HTTP/1.0, a non-browser client) is served: a browser always sends one.
 */
export function hostAllowed(header: string | undefined, allowed: readonly string[]): boolean {
  if (header === undefined || allowed.includes('*')) return true;
  const name = hostName(header);
  if (name === null) return false;
  if (isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost')) return true;
  return allowed.some((entry) => {
    const rule = entry.trim().toLowerCase().replace(/\.$/, '');
    return rule.startsWith('.') ? name === rule.slice(1) || name.endsWith(rule) : name === rule;
  });
}

/** The message a refused request gets, naming the header and how to allow it. */
export function hostRefusal(header: string | undefined, flag = '--allowed-hosts'): string {
  return `Host "${header ?? ''}" is not served here: only IP addresses, localhost and the names given with ${flag} are `
    + '(a defence against DNS rebinding; docs/SECURITY.md)';
}
