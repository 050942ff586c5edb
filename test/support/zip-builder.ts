// Builds zip archives in memory, byte by byte from the PKWARE APPNOTE layout (local headers, data,
// central directory, end record), so that tests can make archives no well-behaved tool would: names
// with `..` or a drive letter, a file and a folder with the same path, sizes that lie. Stored or
// deflated entries only, no zip64. Test support only: never used by the product.

import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntrySpec {
  /** The name exactly as stored (folders end with '/'). */
  name: string;
  data?: Buffer | string;
  /** Default: deflate for files, store for folders. */
  method?: 'store' | 'deflate';
  /** The uncompressed size written in the headers, when it should lie. */
  declaredSize?: number;
}

export function buildZip(entries: readonly ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? '', 'utf8');
    const method = e.method ?? (e.name.endsWith('/') ? 'store' : 'deflate');
    const body = method === 'deflate' ? deflateRawSync(data) : data;
    const crc = crc32(data) >>> 0;
    const size = e.declaredSize ?? data.length;
    const flags = 0x0800; // names are UTF-8
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method === 'deflate' ? 8 : 0, 8);
    local.writeUInt32LE(0, 10); // time, date
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x031e, 4); // made by: unix, 3.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method === 'deflate' ? 8 : 0, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(0, 30); // extra
    central.writeUInt16LE(0, 32); // comment
    central.writeUInt16LE(0, 34); // disk
    central.writeUInt16LE(0, 36); // internal attributes
    central.writeUInt32LE(e.name.endsWith('/') ? (0o40755 << 16) >>> 0 : (0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** The smallest folder core/sdk takes for a release: VERSION, a schematron and fields. */
export function fakeReleaseEntries(version: string, prefix = ''): ZipEntrySpec[] {
  return [
    { name: `${prefix}VERSION`, data: `${version}\n` },
    { name: `${prefix}schematrons/` },
    { name: `${prefix}schematrons/static/complete-validation.sch`, data: '<schema/>' },
    { name: `${prefix}fields/fields.json`, data: '{"fields":[]}' },
  ];
}
