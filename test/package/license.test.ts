// The licence package.json names is the one the repository and the tarball carry (npm packs LICENSE
// whatever `files` says; scripts/check-snippets.mjs checks that the tarball holds it).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

describe('LICENSE', () => {
  it('is the MIT licence that package.json names, held by the hub-embed contributors', () => {
    expect((JSON.parse(read('package.json')) as { license: string }).license).toBe('MIT');
    const text = read('LICENSE');
    expect(text.split('\n')[0]).toBe('MIT License');
    expect(text).toContain('Copyright (c) 2026 hub-embed contributors');
    expect(text).toContain('Permission is hereby granted, free of charge, to any person obtaining a copy');
    expect(text).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
  });
});
