import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoSeriousA11y } from './support/axe.js';
import { openBrowser, type Browser } from './support/browser.js';
import { startPortal, type Portal } from './support/portal.js';
import { apiClient } from './support/ui.js';
import { ALL_PAYLOADS } from './support/xss-corpus.js';

/**
 * The sanitiser's XSS corpus rendered by Chromium (docs/rules/content.md, "Rich text"): every payload is saved as part of
 * a news body through the admin API, published, and the public detail page is opened with traps
 * set before any script of the page runs: alert/confirm/prompt/print replaced, native dialogs
 * watched, and every Content-Security-Policy violation reported. The CSP (`script-src 'self'`)
 * would block an inline handler that slipped through, so a violation is the tell-tale of an
 * injection the sanitiser missed, and the rendered DOM is read against the allow-list too: only
 * allowed tags and attributes, no on* attribute, no address with a script or foreign scheme. A
 * broadcast in-site message whose title and text look like HTML shows as text in the inbox.
 */
let portal: Portal;
let api: ReturnType<typeof apiClient>;
let superToken = '';
let browser: Browser;

const SUPER = { username: 'admin', password: 'Admin@2025' };
const PARTICIPANT = { username: 'demo3', password: 'Demo@2025' };
const RUN = Math.random().toString(36).slice(2, 7).toUpperCase();
/** Payloads per article: a few pages for the whole corpus (a page load costs far more than a payload). */
const PER_ARTICLE = 20;
const TITLE_PAYLOAD = `<img src=x onerror=alert('title')>标题${RUN}`;

interface Hit {
  kind: string;
  detail: string;
}

declare global {
  interface Window {
    __xssHit?: (kind: string, detail: string) => void;
    __inspectXss?: (root: Element) => string[];
    xss?: (...args: unknown[]) => void;
  }
}

/**
 * Runs in every document before its own scripts: the traps, and the reading of a rendered
 * fragment against the sanitiser's allow-list (docs/api-content.md "HTML sanitising").
 */
function installTraps(): void {
  const report = (kind: string, detail: unknown) => window.__xssHit?.(kind, String(detail));
  for (const name of ['alert', 'confirm', 'prompt', 'print'] as const) {
    Object.defineProperty(window, name, { configurable: false, writable: false, value: (...args: unknown[]) => report(name, args.join(' ')) });
  }
  window.xss = (...args: unknown[]) => report('xss', args.join(' '));
  // Capture on window: the event is fired at the offending element (or the document). A refused
  // eval is left out: markup cannot eval (an injected script would be refused before it could),
  // and zod's validator probes `new Function('')` once to choose its fast path (reported apart).
  window.addEventListener(
    'securitypolicyviolation',
    (e) => {
      if (e.blockedURI !== 'eval') report('csp', `${e.violatedDirective} ${e.blockedURI} ${e.sample} at ${e.sourceFile}:${e.lineNumber}`);
    },
    true,
  );
  const TAGS = new Set('p br hr h1 h2 h3 h4 h5 h6 strong b em i u s del sub sup blockquote pre code ul ol li a img table caption thead tbody tfoot tr th td span div figure figcaption'.split(' '));
  const ATTRS: Record<string, string[]> = {
    a: ['href', 'title', 'target', 'rel', 'style'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    th: ['colspan', 'rowspan', 'style'],
    td: ['colspan', 'rowspan', 'style'],
  };
  const SAFE_URL = /^(https?:\/\/|mailto:|\/(?![/\\])|#)/i;
  const SAFE_IMG = /^(\/api\/attachment\/stream\/[A-Za-z0-9_-]+(\?[A-Za-z0-9_=&%.-]*)?|data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+)$/;
  window.__inspectXss = (root: Element) => {
    const found: string[] = [];
    for (const el of Array.from(root.querySelectorAll('*'))) {
      const tag = el.localName;
      if (!TAGS.has(tag) || el.namespaceURI !== 'http://www.w3.org/1999/xhtml') found.push(`tag ${tag}`);
      for (const { name, value } of Array.from(el.attributes)) {
        if (/^on/i.test(name)) found.push(`handler ${tag}.${name}`);
        else if (!(ATTRS[tag] ?? ['style']).includes(name)) found.push(`attribute ${tag}.${name}`);
        const url = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
        if (name === 'href' && !SAFE_URL.test(url)) found.push(`href ${value}`);
        if (name === 'src' && !SAFE_IMG.test(url)) found.push(`src ${value}`);
        if (name === 'style' && /url\(|expression|javascript|@import|\\|position|behavior|-moz-binding/i.test(value)) found.push(`style ${value}`);
      }
      // What a person does with a page: point at things, tab through them.
      for (const type of ['mouseover', 'mouseenter', 'pointerenter', 'focus', 'focusin', 'toggle', 'animationstart']) el.dispatchEvent(new Event(type));
    }
    return found;
  };
}

/** Waits until the page's pictures have loaded or failed and queued events (CSP reports) have run. */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete));
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

beforeAll(async () => {
  portal = await startPortal();
  api = apiClient(portal.url);
  ({ accessToken: superToken } = await api.ok<{ accessToken: string }>('POST', '/admin/login', null, SUPER));
});

afterAll(async () => {
  await browser?.close();
  await portal?.stop();
});

describe('XSS corpus rendered in Chromium', () => {
  const hits: Hit[] = [];
  const dialogs: string[] = [];
  let page: Page;

  beforeAll(async () => {
    browser = await openBrowser();
    page = browser.page;
    await page.exposeFunction('__xssHit', (kind: string, detail: string) => void hits.push({ kind, detail }));
    await page.addInitScript(installTraps);
    page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
  });

  it('the traps and the reading work: an injected handler is reported, a planted one is found', async () => {
    await page.goto(`${portal.url}/medical-insurance`);
    await page.getByTestId('news-list-MEDICAL_INSURANCE').waitFor();
    await page.evaluate(() => window.alert('probe'));
    await page.evaluate(() => {
      const planted = document.createElement('div');
      planted.id = 'xss-control';
      planted.innerHTML = '<img src="/missing-control.png" onerror="alert(1)"><a href="java&#x09;script:alert(2)">x</a><svg></svg>';
      document.body.append(planted);
    });
    await settle(page);
    await expect.poll(() => hits.map((h) => h.kind)).toEqual(expect.arrayContaining(['alert', 'csp']));
    const found = await page.evaluate(() => window.__inspectXss!(document.getElementById('xss-control')!));
    expect(found).toEqual(expect.arrayContaining(['handler img.onerror', 'src /missing-control.png', 'href java\tscript:alert(2)', 'tag svg']));
    hits.length = 0;
  });

  it(`every corpus payload (${ALL_PAYLOADS.length}), published in news bodies, renders inert on the public pages`, async () => {
    // Control characters (NUL, which PostgreSQL text cannot hold, other C0 controls but tab/CR/LF,
    // DEL, bidi overrides and isolates) are refused at the door (400): nothing stored.
    const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/;
    const withNul = ALL_PAYLOADS.filter((p) => FORBIDDEN.test(p));
    expect(withNul.length).toBeGreaterThan(0);
    for (const payload of withNul) {
      const refused = await api.call('POST', '/admin/news', superToken, { category: 'MEDICAL_INSURANCE', title: `NUL ${RUN}`, body: `<p>x</p>${payload}` });
      expect(refused.http).toBe(400);
    }
    expect((await api.ok<{ total: number }>('GET', `/admin/news?keyword=${encodeURIComponent(`NUL ${RUN}`)}`, superToken)).total).toBe(0);

    const storable = ALL_PAYLOADS.filter((p) => !FORBIDDEN.test(p));
    const groups: string[][] = [];
    for (let i = 0; i < storable.length; i += PER_ARTICLE) groups.push(storable.slice(i, i + PER_ARTICLE));
    const ids: string[] = [];
    for (const [n, group] of groups.entries()) {
      const created = await api.ok<{ id: string }>('POST', '/admin/news', superToken, {
        category: 'MEDICAL_INSURANCE',
        title: n === 0 ? TITLE_PAYLOAD : `XSS 语料 ${n + 1}/${groups.length} ${RUN}`,
        summary: n === 0 ? TITLE_PAYLOAD : '',
        // Text first: an article without text or picture cannot be published.
        body: `<p>XSS 语料第 ${n + 1} 组</p>\n${group.join('\n')}`,
      });
      await api.ok('POST', `/admin/news/${created.id}/publish`, superToken, {});
      ids.push(created.id);
    }

    // The list shows the HTML-looking title and summary as text.
    await page.goto(`${portal.url}/medical-insurance`);
    const titled = page.getByTestId('news-row').filter({ hasText: TITLE_PAYLOAD });
    await titled.waitFor();
    expect(await titled.locator('.news-row__title').innerText()).toContain(TITLE_PAYLOAD);
    expect(await titled.locator('.news-row__summary').innerText()).toBe(TITLE_PAYLOAD);
    // The row is the app's own markup (classes, test ids): only handlers and pictures matter there.
    expect(await titled.evaluate((row) => Array.from(row.querySelectorAll('*')).flatMap((e) => e.getAttributeNames().filter((n) => /^on/i.test(n))))).toEqual([]);
    expect(await titled.locator('img[src="x"]').count()).toBe(0);

    for (const [n, id] of ids.entries()) {
      await page.goto(`${portal.url}/dynamic-detail?id=${id}`);
      const body = page.getByTestId('article-body');
      await body.getByText(`XSS 语料第 ${n + 1} 组`).waitFor();
      if (n === 0) expect(await page.locator('.news-article__title').innerText()).toBe(TITLE_PAYLOAD);
      const breaches = await body.evaluate((root) => window.__inspectXss!(root));
      await settle(page);
      expect(breaches, `article ${n + 1}`).toEqual([]);
      expect(hits, `article ${n + 1}`).toEqual([]);
      expect(dialogs).toEqual([]);
    }
    await expectNoSeriousA11y(page, { screen: 'public news detail (XSS corpus)' });
  });

  it('the participant inbox shows a broadcast whose title and text look like HTML as text', async () => {
    const title = `<img src=x onerror=alert(1)>通知${RUN}`;
    const lines = ['<script>alert(1)</script>', '<b onmouseover=alert(2)>粗体</b>', '<a href="javascript:alert(3)">链接</a>', `&lt;i&gt;${RUN}`];
    const account = (await api.ok<{ list: { id: string; username: string }[] }>('GET', `/admin/broadcast/accounts?keyword=${PARTICIPANT.username}`, superToken)).list.find(
      (a) => a.username === PARTICIPANT.username,
    )!;
    const sent = await api.ok<{ batchId: string }>('POST', '/admin/broadcast/insite/send', superToken, {
      segment: { kind: 'ACCOUNTS', values: [account.id] },
      title,
      body: lines.join('\n'),
    });
    await expect
      .poll(async () => (await api.ok<{ batch: { status: string } }>('GET', `/admin/broadcast/${sent.batchId}`, superToken)).batch.status, { timeout: 20_000 })
      .toBe('DONE');

    // Signing in is not what this is about: the token of an API login, stored where the app keeps it.
    const { accessToken } = await api.ok<{ accessToken: string }>('POST', '/login', null, { isPhoneLogin: false, ...PARTICIPANT });
    await page.evaluate((token) => localStorage.setItem('AccessToken', token), accessToken);
    await page.goto(`${portal.url}/my-message`);
    const message = page.getByTestId('message-row').filter({ hasText: title });
    await message.waitFor();
    expect(await message.locator('.my-message__title').innerText()).toBe(title);
    await message.click();
    const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('message-body') });
    const body = dialog.getByTestId('message-body');
    await body.getByText(RUN).waitFor();
    expect(await dialog.locator('.ant-modal-title').innerText()).toBe(title);
    expect(await body.innerText()).toBe(lines.join('\n'));
    // Only the line breaks are markup.
    expect(await body.evaluate((root) => Array.from(root.querySelectorAll('*')).map((e) => e.localName))).toEqual(['br', 'br', 'br']);
    expect(await body.evaluate((root) => window.__inspectXss!(root))).toEqual([]);
    await settle(page);
    expect(hits).toEqual([]);
    expect(dialogs).toEqual([]);
  });
});
