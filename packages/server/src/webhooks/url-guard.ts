import dns from 'node:dns';
import { isIP, isIPv6, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { parseHttpUrl } from '../http/urls.ts';

/** Cloud metadata addresses outside the ranges refused anyway (AWS IPv6, Alibaba, Oracle, ECS). */
const METADATA = new Set(['fd00:ec2::254', '100.100.100.200', '192.0.0.192', '169.254.169.254', '169.254.170.2']);

/**
 * IPv4-compatible IPv6 (`::a.b.c.d`, deprecated by RFC 4291): ipaddr.js files it under plain
 * `unicast`, yet `[::127.0.0.1]` reaches 127.0.0.1 on hosts that still route it. Nothing public
 * lives there, so the whole range is refused.
 */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** What every refusal of a non-public address says, so an operator who meant it knows the switch. */
const HOW_TO_ALLOW = '(set WEBHOOK_ALLOW_PRIVATE_URLS=true to allow private addresses)';

/** Why a URL or an address was refused: the text of a `url_not_allowed` error or of a failed attempt. */
export class UrlNotAllowed extends Error {}

/**
 * Whether an address is a public unicast one. Everything ipaddr.js files under a special range is
 * refused: loopback, private, link-local (169.254.169.254 included), carrier-grade NAT, multicast,
 * broadcast, unspecified (0.0.0.0, ::), unique-local, reserved, and IPv6 forms that embed an IPv4
 * address (mapped and compatible, NAT64, 6to4, Teredo), which could smuggle a private one.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d`; the URL parser's canonical form (`::808:808`,
  // what a URL host already is) keeps compatible and mapped apart.
  let ip = ipaddr.parse(isIPv6(address) ? new URL(`http://[${address}]/`).hostname.slice(1, -1) : address);
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.match(IPV4_COMPATIBLE)) return false;
    if (v6.isIPv4MappedAddress()) ip = v6.toIPv4Address();
  }
  if (METADATA.has(ip.toNormalizedString()) || METADATA.has(ip.toString())) return false;
  return ip.range() === 'unicast';
}

/** IPv6 ranges whose last 32 bits are an IPv4 address: compatible, mapped, NAT64 (RFC 6052). */
const EMBEDS_IPV4 = [IPV4_COMPATIBLE, ipaddr.parseCIDR('::ffff:0:0/96'), ipaddr.parseCIDR('64:ff9b::/96')];

/** An address as a person recognises it: an IPv6 form that embeds an IPv4 address names it (`::7f00:1 (127.0.0.1)`). */
function describe(address: string): string {
  if (!ipaddr.IPv6.isValid(address)) return address;
  const ip = ipaddr.IPv6.parse(address);
  if (['loopback', 'unspecified'].includes(ip.range()) || !EMBEDS_IPV4.some((cidr) => ip.match(cidr))) return address;
  const [high, low] = ip.parts.slice(6);
  return `${address} (${[high >> 8, high & 0xff, low >> 8, low & 0xff].join('.')})`;
}

/** The refusal of a non-public address, naming the setting that allows it. */
function refusal(what: string, address: string): UrlNotAllowed {
  return new UrlNotAllowed(`${what}${describe(address)} is not a public address ${HOW_TO_ALLOW}`);
}

type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/**
 * The SSRF guard (API.md §4, §9). `check` runs when a webhook is saved; `lookup` is handed to the
 * HTTP client at every attempt, so the address it connects to is the address that was checked
 * (a name that re-resolves to a private address between the two — DNS rebinding — is refused at
 * connect time). With `allowPrivate` (WEBHOOK_ALLOW_PRIVATE_URLS=true) only the scheme is checked.
 */
export class UrlGuard {
  /** A `lookup` for net/http that resolves, refuses any non-public answer, and returns the vetted addresses. Undefined when private URLs are allowed. */
  readonly lookup: LookupFunction | undefined;

  constructor(
    private readonly allowPrivate: boolean,
    private readonly resolve: Resolver = systemResolver,
  ) {
    this.lookup = allowPrivate ? undefined : (hostname, options, callback) => this.vettedLookup(hostname, options, callback);
  }

  /** The parsed URL when it is http(s); throws UrlNotAllowed otherwise. */
  parse(url: string): URL {
    const u = parseHttpUrl(url);
    if (u) return u;
    throw new UrlNotAllowed(URL.canParse(url) ? `Only http and https URLs are allowed, not ${new URL(url).protocol}` : `"${url.slice(0, 200)}" is not a URL`);
  }

  /** Refuses an IP literal host that is not public; returns the bare host. */
  checkLiteral(u: URL): string {
    const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!this.allowPrivate && isIP(host) && !isPublicAddress(host)) throw refusal('', host);
    return host;
  }

  /** Save-time check: the scheme, then every address the host resolves to now. A name that does not resolve yet is let through (each attempt checks again). */
  async check(url: string): Promise<void> {
    const u = this.parse(url);
    const host = this.checkLiteral(u);
    if (this.allowPrivate || isIP(host)) return;
    let addresses: Array<{ address: string }>;
    try {
      addresses = await withTimeout(this.resolve(host), 5000);
    } catch {
      return;
    }
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) throw refusal(`${host} resolves to `, bad.address);
  }

  private vettedLookup(...[hostname, options, callback]: Parameters<LookupFunction>): void {
    this.resolve(hostname).then(
      (addresses) => {
        const family = typeof options.family === 'number' ? options.family : 0;
        const usable = family ? addresses.filter((a) => a.family === family) : addresses;
        const bad = usable.find((a) => !isPublicAddress(a.address));
        if (bad) return callback(refusal(`${hostname} resolves to `, bad.address), '', 0);
        if (usable.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
        if (options.all) return (callback as unknown as (e: null, a: typeof usable) => void)(null, usable);
        return callback(null, usable[0].address, usable[0].family);
      },
      (e: NodeJS.ErrnoException) => callback(e, '', 0),
    );
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('timed out')), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}
