import { promises as dns } from 'node:dns';
import { checkWebhookUrl, isPublicAddress, resolvePermittedAddresses, WEBHOOK_URL_MAX_LENGTH, WebhookAddressError } from './address-policy';

describe('address policy', () => {
  afterEach(() => jest.restoreAllMocks());

  describe(isPublicAddress.name, () => {
    it.each([
      ['8.8.8.8'],
      ['1.1.1.1'],
      ['93.184.215.14'],
      ['100.63.255.255'], // just below carrier-grade NAT
      ['100.128.0.0'], // just above it
      ['172.15.255.255'],
      ['172.32.0.0'],
      ['198.17.255.255'],
      ['198.20.0.0'],
      ['223.255.255.255'],
      ['2606:4700::1111'],
      ['2001:4860:4860::8888'],
      ['::ffff:8.8.8.8'],
      ['::ffff:808:808'],
      ['64:ff9b::8.8.8.8'],
      ['64:ff9b::101:101'],
      ['2001:db9::1'], // just beyond the documentation prefix
      ['fbff:ffff::1'], // just below unique local
    ])('takes %s for public', (ip) => expect(isPublicAddress(ip)).toBe(true));

    it.each([
      ['0.0.0.0', 'this network'],
      ['0.255.255.255', 'this network'],
      ['10.0.0.1', 'private'],
      ['10.255.255.255', 'private'],
      ['100.64.0.1', 'carrier-grade NAT'],
      ['100.127.255.255', 'carrier-grade NAT'],
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['169.254.169.254', 'cloud metadata'],
      ['169.254.0.1', 'link-local'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.0.0.170', 'IETF protocol assignments'],
      ['192.0.2.1', 'documentation'],
      ['192.168.1.1', 'private'],
      ['198.18.0.1', 'benchmarking'],
      ['198.19.255.255', 'benchmarking'],
      ['198.51.100.7', 'documentation'],
      ['203.0.113.7', 'documentation'],
      ['224.0.0.1', 'multicast'],
      ['239.255.255.250', 'multicast'],
      ['240.0.0.1', 'reserved'],
      ['255.255.255.255', 'broadcast'],
      ['::', 'unspecified'],
      ['::1', 'loopback'],
      ['0:0:0:0:0:0:0:1', 'loopback, written in full'],
      ['fc00::1', 'unique local'],
      ['fd00:ec2::254', 'AWS metadata'],
      ['fdff:ffff::1', 'unique local'],
      ['fe80::1', 'link-local'],
      ['febf:ffff::1', 'link-local'],
      ['fe80::1%eth0', 'link-local with a zone'],
      ['fec0::1', 'site-local'],
      ['ff02::1', 'multicast'],
      ['2001:db8::1', 'documentation'],
      ['100::1', 'discard'],
      ['64:ff9b:1::1', 'local-use NAT64'],
      ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
      ['::ffff:7f00:1', 'IPv4-mapped loopback in hexadecimal'],
      ['0:0:0:0:0:ffff:a9fe:a9fe', 'IPv4-mapped metadata, written in full'],
      ['::ffff:10.0.0.1', 'IPv4-mapped private'],
      ['::ffff:0:0', 'IPv4-mapped this network'],
      ['64:ff9b::127.0.0.1', 'NAT64 loopback'],
      ['64:ff9b::a9fe:a9fe', 'NAT64 metadata'],
      ['64:ff9b::c0a8:101', 'NAT64 private'],
      ['localhost', 'not an address'],
      ['', 'not an address'],
      ['127.1', 'not an address in dotted-quad form'],
    ])('refuses %s (%s)', (ip) => expect(isPublicAddress(ip)).toBe(false));
  });

  describe(resolvePermittedAddresses.name, () => {
    const resolvesTo = (...addresses: string[]) =>
      jest.spyOn(dns, 'lookup').mockResolvedValue(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })) as never);

    it('gives every address a public host resolves to, in the resolver’s order', async () => {
      const lookup = resolvesTo('2606:4700::1111', '1.1.1.1');
      await expect(resolvePermittedAddresses('hooks.example.com', false)).resolves.toEqual([
        { address: '2606:4700::1111', family: 6 },
        { address: '1.1.1.1', family: 4 },
      ]);
      expect(lookup).toHaveBeenCalledWith('hooks.example.com', expect.objectContaining({ all: true }));
    });

    it('refuses the host when any one of its addresses is private, naming the host and the address', async () => {
      resolvesTo('1.1.1.1', '10.0.0.7');
      await expect(resolvePermittedAddresses('hooks.example.com', false)).rejects.toThrow(
        new WebhookAddressError(
          'webhook host "hooks.example.com" resolves to 10.0.0.7, a loopback/private/link-local address; set WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true to allow it',
        ),
      );
    });

    it('gives private addresses when they are allowed', async () => {
      resolvesTo('10.0.0.7');
      await expect(resolvePermittedAddresses('hooks.internal', true)).resolves.toEqual([{ address: '10.0.0.7', family: 4 }]);
    });

    it('refuses a host that resolves to no address', async () => {
      resolvesTo();
      await expect(resolvePermittedAddresses('hooks.example.com', true)).rejects.toThrow(WebhookAddressError);
    });

    it('refuses a name that does not exist, but passes a failing resolver’s error on', async () => {
      jest.spyOn(dns, 'lookup').mockRejectedValueOnce(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
      await expect(resolvePermittedAddresses('nowhere.example.com', true)).rejects.toThrow(
        new WebhookAddressError('webhook host "nowhere.example.com" does not resolve'),
      );
      const outage = Object.assign(new Error('getaddrinfo EAI_AGAIN'), { code: 'EAI_AGAIN' });
      jest.spyOn(dns, 'lookup').mockRejectedValueOnce(outage);
      await expect(resolvePermittedAddresses('hooks.example.com', true)).rejects.toBe(outage);
    });

    it('shares one lookup among concurrent resolutions of a host, and looks it up afresh once that one has answered', async () => {
      const lookup = resolvesTo('1.1.1.1');
      const together = await Promise.all(Array.from({ length: 32 }, () => resolvePermittedAddresses('hooks.example.com', false)));
      expect(together).toEqual(Array(32).fill([{ address: '1.1.1.1', family: 4 }]));
      expect(lookup).toHaveBeenCalledTimes(1);
      await resolvePermittedAddresses('hooks.example.com', false);
      expect(lookup).toHaveBeenCalledTimes(2);
    });

    it('runs at most two lookups at once, so that a slow resolver leaves libuv’s pool threads to the database', async () => {
      const answers: (() => void)[] = [];
      const lookup = jest.spyOn(dns, 'lookup').mockImplementation(
        () => new Promise((resolve) => answers.push(() => resolve([{ address: '1.1.1.1', family: 4 }] as never))) as never,
      );
      const hosts = ['a.example.com', 'b.example.com', 'c.example.com', 'd.example.com'];
      const resolved = Promise.all(hosts.map((host) => resolvePermittedAddresses(host, false)));
      await new Promise(setImmediate);
      expect(lookup).toHaveBeenCalledTimes(2);
      answers.shift()?.();
      await new Promise(setImmediate);
      expect(lookup).toHaveBeenCalledTimes(3);
      while (lookup.mock.calls.length < hosts.length || answers.length > 0) {
        answers.shift()?.();
        await new Promise(setImmediate);
      }
      await expect(resolved).resolves.toHaveLength(4);
      expect(lookup.mock.calls.map(([host]) => host)).toEqual(hosts);
    });

    it('resolves localhost through the system resolver and refuses it', async () => {
      await expect(resolvePermittedAddresses('localhost', false)).rejects.toThrow(/"localhost" resolves to (127\.0\.0\.1|::1), a loopback/);
    });

    it.each([
      ['8.8.8.8', { address: '8.8.8.8', family: 4 }],
      ['[2606:4700::1111]', { address: '2606:4700::1111', family: 6 }],
      ['2606:4700::1111', { address: '2606:4700::1111', family: 6 }],
    ])('takes the IP literal %s as it is, without a lookup', async (hostname, expected) => {
      const lookup = jest.spyOn(dns, 'lookup');
      await expect(resolvePermittedAddresses(hostname, false)).resolves.toEqual([expected]);
      expect(lookup).not.toHaveBeenCalled();
    });

    it.each(['127.0.0.1', '[::1]', '[::ffff:7f00:1]', '169.254.169.254', '[fd00:ec2::254]'])('refuses the IP literal %s', async (hostname) => {
      await expect(resolvePermittedAddresses(hostname, false)).rejects.toThrow(/^webhook address .* is a loopback\/private\/link-local address; set WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true/);
    });

    it('allows a private IP literal when private addresses are allowed', async () => {
      await expect(resolvePermittedAddresses('[::1]', true)).resolves.toEqual([{ address: '::1', family: 6 }]);
    });
  });

  describe(checkWebhookUrl.name, () => {
    const secure = { allowInsecure: false };

    it('gives the parsed URL of an https endpoint', () => {
      expect(checkWebhookUrl('https://Hooks.Example.com:8443/pets?x=1', secure).href).toBe('https://hooks.example.com:8443/pets?x=1');
    });

    it('refuses http unless insecure URLs are allowed, saying how to allow them', () => {
      expect(() => checkWebhookUrl('http://hooks.example.com/', secure)).toThrow(
        new WebhookAddressError('webhook URL must use https; set WEBHOOK_ALLOW_INSECURE=true to allow http'),
      );
      expect(checkWebhookUrl('http://hooks.example.com/', { allowInsecure: true }).protocol).toBe('http:');
    });

    it.each([
      ['another scheme', 'ftp://hooks.example.com/', /must use https, not ftp:/],
      ['a file URL', 'file:///etc/passwd', /must use https, not file:/],
      ['a relative URL', '/hooks', /not an absolute URL/],
      ['no URL at all', 'hooks example', /not an absolute URL/],
      ['a user name', 'https://user@hooks.example.com/', /user name or password/],
      ['a password', 'https://user:s3cret@hooks.example.com/', /user name or password/],
      ['a fragment', 'https://hooks.example.com/#part', /fragment/],
      ['an empty fragment', 'https://hooks.example.com/#', /fragment/],
      ['an overlong URL', `https://hooks.example.com/${'a'.repeat(WEBHOOK_URL_MAX_LENGTH)}`, /longer than 2048 characters/],
    ])('refuses %s', (_label, raw, message) => {
      expect(() => checkWebhookUrl(raw, { allowInsecure: true })).toThrow(WebhookAddressError);
      expect(() => checkWebhookUrl(raw, { allowInsecure: true })).toThrow(message);
    });

    it('never quotes the refused URL, which may hold a password', () => {
      expect(() => checkWebhookUrl('https://user:s3cret@hooks.example.com/', secure)).not.toThrow(/s3cret/);
    });

    it('accepts a URL of exactly the maximum length', () => {
      const raw = `https://hooks.example.com/${'a'.repeat(WEBHOOK_URL_MAX_LENGTH - 'https://hooks.example.com/'.length)}`;
      expect(checkWebhookUrl(raw, secure).href).toHaveLength(WEBHOOK_URL_MAX_LENGTH);
    });
  });
});
