/**
 * The platform serves the device companion (DEVICE_COMPANION_PATH, a second Vite entry): GET
 * /device/ (and any path under it without a file extension) answers device.html, the manifest
 * answers with the web app manifest type, and the web app's own paths still answer index.html
 * (the pages with early reads, api/early-read-pages.ts, index.early.html when the build made it).
 * A built dist/ is simulated with a temporary folder holding the files Vite emits.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EARLY_READ_HTML, EARLY_READ_PAGES } from '../../api/early-read-pages.ts';
import { DEVICE_COMPANION_PATH } from '../../api/devices.ts';
import { deviceManifestJson } from '../../src/device/manifest.ts';
import { activeVariant } from '../../variants/index.ts';
import { createTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'wlb-dist-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title><div id="root" data-entry="app"></div>');
  writeFileSync(join(dist, EARLY_READ_HTML), '<!doctype html><title>app</title><div id="root" data-entry="app-early"></div>');
  writeFileSync(join(dist, 'device.html'), '<!doctype html><title>companion</title><div id="root" data-entry="companion"></div>');
  mkdirSync(join(dist, 'device'));
  writeFileSync(join(dist, 'device', 'manifest.webmanifest'), deviceManifestJson(activeVariant));
  writeFileSync(join(dist, 'device', 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await createTestApp({ distDir: dist });
});

afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('device companion pages', () => {
  it('GET /device/ answers the companion page, not the web app', async () => {
    for (const url of [DEVICE_COMPANION_PATH, '/device', '/device/approve']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.body, url).toContain('data-entry="companion"');
    }
  });

  it('the web app keeps its history fallback', async () => {
    for (const url of ['/login', '/setting', '/scp-mobile', '/home/other', '/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('data-entry="app"');
    }
  });

  it('the pages with early reads answer the page with their script, and index.html when the build has none', async () => {
    for (const page of EARLY_READ_PAGES) {
      for (const url of [page, `${page}?x=1`]) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.body, url).toContain('data-entry="app-early"');
      }
    }
    rmSync(join(dist, EARLY_READ_HTML));
    const res = await t.app.inject({ method: 'GET', url: EARLY_READ_PAGES[0] });
    expect(res.body).toContain('data-entry="app"');
  });

  it('the manifest answers as a web app manifest with the companion start URL', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/device/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = res.json() as { start_url: string; display: string; name: string; theme_color: string; icons: unknown[] };
    expect(manifest.start_url).toBe(DEVICE_COMPANION_PATH);
    expect(manifest.display).toBe('standalone');
    expect(manifest.name).toContain(activeVariant.projectName);
    expect(manifest.theme_color).toBe(activeVariant.theme.primary);
    expect(manifest.icons.length).toBeGreaterThan(0);
  });

  it('a missing companion file is a 404, not the page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/device/missing.png' });
    expect(res.statusCode).toBe(404);
  });
});
