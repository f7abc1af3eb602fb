// The optional peers accept any version, and the bindings say what they need when they load
// (src/core/peer-floors.ts): an app on React 17 or Vue 2.7 that never imports a binding installs.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { meetsFloor, PEER_FLOORS, requirePeer } from '../../src/core/peer-floors.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

describe('peer floors', () => {
  it('every peer dependency is optional: no install pulls a framework into an app', () => {
    for (const name of Object.keys(pkg.peerDependencies))
      expect(pkg.peerDependenciesMeta[name]?.optional, name).toBe(true);
  });

  it('a floored peer accepts any version in package.json, so an app on an older major installs without ERESOLVE', () => {
    for (const name of Object.keys(PEER_FLOORS)) expect(pkg.peerDependencies[name], name).toBe('*');
  });

  it('@lit/react is an optional peer, not a dependency: installs without hub-embed/react pull no @types/react', () => {
    expect(pkg.dependencies['@lit/react']).toBeUndefined();
    expect(pkg.peerDependencies['@lit/react']).toBeDefined();
  });

  it('a binding loaded with a peer older than its floor throws, naming the binding and both versions', () => {
    expect(() => requirePeer('hub-embed/react', 'react', '17.0.2')).toThrow(
      'hub-embed/react needs react 18.0.0 or later; this app has react 17.0.2.',
    );
    expect(() => requirePeer('hub-embed/react-native', 'react-native', '0.73.9')).toThrow(/0\.74\.0 or later/);
    expect(() => requirePeer('hub-embed/react', 'react', 'not a version')).toThrow();
  });

  it('a peer at or above its floor, or one that reports no version, passes', () => {
    for (const version of ['18.0.0', '18.3.1', '19.2.0', '19.0.0-rc.1', '100.0.0'])
      expect(() => requirePeer('hub-embed/react', 'react', version), version).not.toThrow();
    expect(() => requirePeer('hub-embed/react-native', 'react-native', undefined)).not.toThrow();
    expect(meetsFloor('0.83.1', '0.74.0')).toBe(true);
    expect(meetsFloor('0.74.0', '0.74.0')).toBe(true);
    expect(meetsFloor('0.9.0', '0.74.0')).toBe(false);
    expect(meetsFloor('13.10.0', '13.8.0')).toBe(true);
  });

  it('docs/react-native.md states the floor of every React Native peer', () => {
    const docs = readFileSync(new URL('../../docs/react-native.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    for (const name of ['react', 'react-native', 'react-native-webview', 'react-native-safe-area-context'] as const)
      expect(docs, name).toContain(`\`${name}\` (${PEER_FLOORS[name]} or later`);
  });
});
