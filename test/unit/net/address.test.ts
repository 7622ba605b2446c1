import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkOutboundUrl, isAllowedAddress, isPublicAddress } from '../../../src/net/address.ts';

test('only public unicast addresses are public', () => {
  const blocked = ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1',
    '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'ff02::1', 'not-an-ip'];
  for (const a of blocked) assert.equal(isPublicAddress(a), false, a);
  for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) assert.equal(isPublicAddress(a), true, a);
});

test('odd spellings of loopback are refused before any connection', () => {
  for (const url of ['http://2130706433/', 'http://0x7f.0.0.1/', 'http://0177.0.0.1/', 'http://[::ffff:127.0.0.1]/', 'http://[::1]:8080/x',
    'http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data']) {
    const r = checkOutboundUrl(url, false);
    assert.equal(r.ok, false, url);
  }
  assert.equal(checkOutboundUrl('http://2130706433/', true).ok, true);
});

test('only http(s) URLs without credentials are accepted', () => {
  assert.equal(checkOutboundUrl('ftp://example.com/a', false).ok, false);
  assert.equal(checkOutboundUrl('https://user:pw@example.com/', false).ok, false);
  assert.equal(checkOutboundUrl('not a url', false).ok, false);
  assert.equal(checkOutboundUrl('https://example.com/a.jpg', false).ok, true);
});

test('allowing loopback lets this machine in, in every spelling, and nothing else private', () => {
  for (const a of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) assert.equal(isAllowedAddress(a, true), true, a);
  for (const a of ['10.0.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::', 'fe80::1', 'fc00::1', '::ffff:10.0.0.1', 'not-an-ip']) {
    assert.equal(isAllowedAddress(a, true), false, a);
  }
  for (const a of ['127.0.0.1', '::1']) assert.equal(isAllowedAddress(a, false), false, a);
  assert.equal(isAllowedAddress('8.8.8.8', false), true);
  for (const url of ['http://127.0.0.1:9/h', 'http://2130706433/', 'http://0x7f.0.0.1/', 'http://[::ffff:127.0.0.1]/', 'http://[::1]:8080/x']) {
    assert.equal(checkOutboundUrl(url, false, true).ok, true, url);
  }
  for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data', 'http://0.0.0.0/']) assert.equal(checkOutboundUrl(url, false, true).ok, false, url);
});
