// End-to-end tests of the browser client in headless Chromium (Debian's `chromium`, driven by
// playwright-core): a real `torite serve` on 127.0.0.1 with a temporary SQLite file.
//
//   TORITE_BIN=../target/debug/torite node e2e/run.mjs
//
// Prints one line per test and a closing "N passed, N failed" line; exits non-zero on failure.
// Screenshots go to e2e/out/ (phone, in the test's language; E2E_SCREENS=1 adds the desktop
// size and the other language). Every page must keep to the server's Content-Security-Policy:
// a test fails on any violation. The server can be stopped and started again mid-test, on the
// same port and SQLite file.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const bin = resolve(process.env.TORITE_BIN ?? join(here, "../../target/debug/torite"));
const out = join(here, "out");
mkdirSync(out, { recursive: true });
const tmp = mkdtempSync(join(tmpdir(), "torite-e2e-"));
const port = 20000 + Math.floor(Math.random() * 20000);
const base = `http://127.0.0.1:${port}`;

/** The policy every page of the client is served with (docs/PROTOCOL.md). */
const APP_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

let server = null;

/** Starts `torite serve` (again) on the test port and SQLite file, and waits until it answers. */
async function startServer() {
  if (server) throw new Error("the server is already running");
  const child = spawn(bin, ["serve", "--addr", `127.0.0.1:${port}`, "--db", `sqlite:${join(tmp, "e2e.db")}`, "--instant-bots", "--log", "warn"], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  server = child;
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with status ${child.exitCode}`);
    try {
      const res = await fetch(`${base}/api/presets`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server did not start");
}

/** Kills the server as a crash would (SIGKILL) and waits until it has gone. */
async function stopServer(signal = "SIGKILL") {
  const child = server;
  server = null;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once("exit", r));
  child.kill(signal);
  await gone;
}

const browser = await (async () => {
  await startServer();
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync"],
  });
})();

const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true };
let passed = 0;
let failed = 0;

/**
 * A browser context whose pages report into `errors`: script errors, any Content-Security-Policy
 * violation (the event or the console's report), and a client page served without the policy.
 */
async function guardedContext(errors, options) {
  const context = await browser.newContext({ ...phone, ...options });
  await context.exposeBinding("__cspViolation", (_source, text) => errors.push(`CSP violation: ${text}`));
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) =>
      window.__cspViolation(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`));
  });
  const watch = (page) => {
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy/i.test(m.text())) errors.push(`console: ${m.text()}`);
    });
  };
  context.on("page", watch);
  context.on("response", (res) => {
    if (res.request().resourceType() !== "document" || !res.url().startsWith(base)) return;
    const csp = res.headers()["content-security-policy"];
    const path = new URL(res.url()).pathname;
    if (!csp) errors.push(`${path} was served without a Content-Security-Policy`);
    else if (!path.startsWith("/api/") && csp !== APP_CSP) errors.push(`${path} has the policy ${csp}`);
  });
  return context;
}

/**
 * Screenshots of the page as it is: the phone size in the page's language, and with
 * E2E_SCREENS=1 the desktop size and the other language too (`name-{lang}-{phone|desktop}.png`).
 */
async function shots(page, name) {
  const all = process.env.E2E_SCREENS === "1";
  const first = await page.evaluate(() => document.documentElement.lang);
  for (const lang of all ? [first, first === "ja" ? "en" : "ja"] : [first]) {
    if (lang !== (await page.evaluate(() => document.documentElement.lang))) {
      await page.locator("button.lang").click();
      await page.waitForFunction((l) => document.documentElement.lang === l && document.body.dataset.ready, lang);
      await page.waitForTimeout(300);
    }
    await page.screenshot({ path: join(out, `${name}-${lang}-phone.png`), fullPage: true });
    if (all) {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.waitForTimeout(100);
      await page.screenshot({ path: join(out, `${name}-${lang}-desktop.png`), fullPage: true });
      await page.setViewportSize(phone.viewport);
    }
  }
  if (first !== (await page.evaluate(() => document.documentElement.lang))) {
    await page.locator("button.lang").click();
    await page.waitForFunction((l) => document.documentElement.lang === l && document.body.dataset.ready, first);
  }
}

async function test(name, f) {
  // E2E_ONLY=text runs only the tests whose name holds it (while working on one page; the
  // suite as CI runs it sets nothing, and runs every test).
  if (process.env.E2E_ONLY && !name.includes(process.env.E2E_ONLY)) return;
  const errors = [];
  const context = await guardedContext(errors, { locale: "en-US" });
  const page = await context.newPage();
  try {
    await f(page, context, errors);
    if (errors.length) throw new Error(`page errors: ${errors.join("; ")}`);
    passed++;
    console.log(`ok - ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAILED - ${name}: ${e?.stack ?? e}`);
    await page.screenshot({ path: join(out, `failed-${name.replace(/\W+/g, "-")}.png`) }).catch(() => {});
  } finally {
    await context.close();
    // A test that stopped the server and failed before starting it again leaves it running.
    if (!server) await startServer().catch((e) => console.log(`the server did not start again: ${e}`));
  }
}

/**
 * Plays this page's seat until the game is over (or, with `stopAfter`, once it has played that
 * many cards): select a legal card, then confirm.
 */
async function playToTheEnd(page, { stopAfter = Infinity } = {}) {
  let played = 0;
  for (let step = 0; step < 400; step++) {
    if (await page.locator(".game-over").count()) return;
    if (played >= stopAfter) return;
    const close = page.locator(".modal button.close");
    if (await close.count()) {
      await close.click();
      continue;
    }
    const question = page.locator(".ask [data-action]:not(.confirm)");
    const card = page.locator(".hand button.card:not([disabled])");
    // The table changes under the test as bots play and deals end, so a choice seen a moment ago
    // may be gone: a click that finds nothing is given up quickly and the position looked at again.
    const quick = { timeout: 2000 };
    if ((await page.locator(".ask .prompt").count()) && (await question.count()) && !(await card.count())) {
      // Lot question or joker suit call: take the last choice (pass, or a suit).
      await question.last().click(quick).catch(() => {});
    } else if (await card.count()) {
      if (await card.first().click(quick).then(() => true, () => false)) {
        if (await page.locator("button.confirm").click(quick).then(() => true, () => false)) played++;
      }
    }
    await page.waitForTimeout(50);
  }
  throw new Error("the game did not end");
}

await test("lobby in English and Japanese", async (page) => {
  await page.goto(base);
  await page.getByText("New table").waitFor();
  await shots(page, "lobby");
  await page.locator("button.lang").click();
  await page.getByText("新しいテーブル").waitFor();
  await page.screenshot({ path: join(out, "lobby-ja.png"), fullPage: true });
  const options = await page.locator("#preset option").count();
  if (options !== 14) throw new Error(`${options} presets listed`);
  // The three- and six-player presets by their names in both languages, never by their ids.
  const named = { en: ["Mini Misère (6 players)", "Mini Misère (3 players, with the joker)"], ja: ["ミニミゼール（6人）", "ミニミゼール（3人・ジョーカー入り）"] };
  for (const lang of ["ja", "en"]) {
    if (lang === "en") {
      await page.locator("button.lang").click();
      await page.getByText("New table").waitFor();
    }
    const shown = await Promise.all(["mini-misere-6", "mini-misere-3"].map((id) => page.locator(`#preset option[value='${id}']`).innerText()));
    if (JSON.stringify(shown) !== JSON.stringify(named[lang])) throw new Error(`${lang}: the new presets are listed as ${JSON.stringify(shown)}`);
    // The house-rule options by their labels and choices in words, not their interchange names.
    if ((await page.locator("#create [data-option] .option-help").count()) !== (await page.locator("#create [data-option]").count())) throw new Error("an option of the form has no explanation");
    const option = page.locator("[data-option=lot_timing]");
    const words = [await option.locator("span").innerText(), await option.locator("option:checked").innerText()];
    const want = lang === "en" ? ["Lot timing", "with the first card (current rules)"] : ["ロットの宣言", "最初のカードを出すとき（現行ルール）"];
    if (JSON.stringify(words) !== JSON.stringify(want)) throw new Error(`${lang}: the Lot timing option is shown as ${JSON.stringify(words)}`);
    // The bots by their named levels, never by their algorithms, with the chosen one described.
    const levels = await page.locator("#fill option").allInnerTexts();
    const names = lang === "en" ? ["Beginner", "Casual", "Club", "Strong", "Expert"] : ["初心者", "カジュアル", "クラブ", "強豪", "エキスパート"];
    if (JSON.stringify(levels.slice(1)) !== JSON.stringify(names)) throw new Error(`${lang}: the bot levels are offered as ${JSON.stringify(levels)}`);
    if (!(await page.locator(".level-help").innerText()).length) throw new Error(`${lang}: the chosen level is not described`);
    // On a desktop too the form keeps to its card: no house rule's long choice pushes the page
    // sideways.
    await page.setViewportSize({ width: 1280, height: 800 });
    await fitsWidth(page, 1280, `${lang}: the lobby on a desktop`);
    await choicesReadInFull(page, `${lang}: the lobby on a desktop`);
    await page.setViewportSize(phone.viewport);
    await fitsPhone(page, `${lang}: the lobby`);
    await choicesReadInFull(page, `${lang}: the lobby`);
  }
});

/** Fails when the page is wider than the phone's 390 px (something pushed it sideways). */
async function fitsPhone(page, where) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  if (width > 390) throw new Error(`${where}: the page is ${width} px wide on a 390 px phone`);
}

// Four unbroken 24-character names and a long Japanese one, which the server accepts.
const LONG_NAMES = ["Wolfeschlegelsteinhausen", "MMMMMMMMMMMMMMMMMMMMMMMM", "WWWWWWWWWWWWWWWWWWWWWWWW", "Xx_Ultimate_Destroyer_xX", "寿限無寿限無五劫の擦り切れ海砂利水魚の水行末雲来"];

let tableUrl = "";
await test("create a table and play a whole game against bots", async (page) => {
  await page.goto(base);
  // A long name: the game over, the history and the replay must fit the phone with it.
  await page.locator("#name").fill(LONG_NAMES[0]);
  await page.locator("#preset").selectOption("mini-misere-4-1989");
  await page.locator("[name=deals]").fill("1");
  await page.locator("#fill").selectOption("beginner");
  await page.locator("#create button[type=submit]").click();
  await page.waitForURL(/\/t\/[0-9a-f]+$/);
  tableUrl = page.url();
  await page.locator(".seat-box").first().waitFor();
  await page.locator(".hand .card").first().waitFor();
  await shots(page, "table-mid-game");
  const seats = await page.locator(".seat-box").count();
  if (seats !== 4) throw new Error(`${seats} seats shown`);
  // The bots play at once, so the seat is to act: the tab's title says so, and stops saying
  // so once the game is over.
  await page.waitForFunction(() => document.title.startsWith("● Your turn"), null, { timeout: 5000 })
    .catch(async () => { throw new Error(`the title is ${JSON.stringify(await page.title())} on the seat's turn`); });
  const marked = () => page.evaluate(() => (document.querySelector("link[rel=icon]")?.getAttribute("href") ?? "").includes("%23d9822b"));
  if (!(await marked())) throw new Error("the tab's icon is not marked on the seat's turn");
  await playToTheEnd(page);
  await page.locator(".game-over a[download]").waitFor();
  if ((await page.title()).includes("●")) throw new Error(`the title is ${JSON.stringify(await page.title())} once the game is over`);
  if (await marked()) throw new Error("the tab's icon is still marked once the game is over");
  await fitsPhone(page, "game over");
  await page.screenshot({ path: join(out, "game-over.png"), fullPage: true });
  const record = await (await fetch(`${base}/api/tables/${tableUrl.split("/").pop()}/record`)).json();
  if (record.ruleset !== "mini-misere-4-1989" && record.ruleset?.base !== "mini-misere-4-1989") {
    throw new Error(`record ruleset ${JSON.stringify(record.ruleset)}`);
  }
});

/** The `torite replay` report of a table's record: the command line's own replay of it. */
async function reportOf(id) {
  const res = await fetch(`${base}/api/tables/${id}/record`);
  if (!res.ok) throw new Error(`record: ${res.status}`);
  const file = join(tmp, `${id}.json`);
  writeFileSync(file, await res.text());
  return JSON.parse(execFileSync(bin, ["replay", file], { encoding: "utf8" }));
}

/** Texts of the elements a locator finds, as numbers. */
async function numbers(locator) {
  return (await locator.allInnerTexts()).map((x) => Number(x.trim()));
}

await test("history page and replay viewer step through a finished game", async (page) => {
  if (!tableUrl) throw new Error("no finished table");
  const id = tableUrl.split("/").pop();
  const report = await reportOf(id);
  const last = report.deals[report.deals.length - 1];
  // The lobby links a finished table to its history.
  await page.goto(base);
  await page.locator(`.table-row[data-table="${id}"] .history-link`).waitFor();
  // From the finished table: the scores it showed, then its history.
  await page.goto(tableUrl);
  await page.locator(".game-over .history-link").waitFor();
  const shown = await numbers(page.locator(".scores tfoot th:not(:first-child)"));
  if (JSON.stringify(shown) !== JSON.stringify(last.totals)) throw new Error(`table totals ${shown} vs ${last.totals}`);
  await page.locator(".modal button.close").click({ timeout: 2000 }).catch(() => {});
  await page.locator(".game-over .history-link").click();
  await page.waitForURL(/\/history$/);
  await page.locator(".history-table").waitFor();
  const rows = await page.locator(".history-table tbody tr[data-deal]").count();
  if (rows !== report.deals.length) throw new Error(`${rows} deals listed, ${report.deals.length} played`);
  // On a phone each deal's scoring rule is in words under its scores, not in a column past
  // the screen's edge.
  const rule = page.locator(".history-table tr.rule-row").first();
  if (!(await rule.isVisible()) || !(await rule.innerText()).trim()) throw new Error("the scoring rule is not shown on a phone");
  const totals = await numbers(page.locator(".history-table tfoot th[data-seat]"));
  if (JSON.stringify(totals) !== JSON.stringify(last.totals)) throw new Error(`history totals ${totals} vs ${last.totals}`);
  await page.locator(".history a.record-link[download]").waitFor();
  await fitsPhone(page, "history");
  await shots(page, "history");
  // The replay, action by action: every trick's winner as the record's replay has it.
  await page.locator(".history .replay-link").click();
  await page.waitForURL(/\/replay/);
  await page.locator(".replay-nav").waitFor();
  if (await page.locator(".replay-seat .card").count() === 0) throw new Error("no hands shown");
  const winners = [];
  for (let i = 0; i < 500; i++) {
    const complete = page.locator(".trick.complete figure.winning");
    if (await complete.count()) winners.push(Number(await complete.getAttribute("data-seat")));
    const next = page.locator("button[data-nav=next]");
    if (await next.isDisabled()) break;
    const before = await page.locator(".position").innerText();
    await next.click();
    await page.waitForFunction((b) => document.querySelector(".position")?.textContent !== b, before);
  }
  const expected = report.deals.flatMap((d) => d.tricks.filter((t) => t.winner !== null).map((t) => t.winner));
  if (!expected.length) throw new Error("the record has no trick");
  if (JSON.stringify(winners) !== JSON.stringify(expected)) throw new Error(`trick winners ${winners} vs ${expected}`);
  const final = await numbers(page.locator(".deal-scores td.total"));
  if (JSON.stringify(final) !== JSON.stringify(last.totals)) throw new Error(`final totals ${final} vs ${last.totals}`);
  await page.locator(".deal-end .final").waitFor();
  await fitsPhone(page, "replay");
  await shots(page, "replay-end");
  // Keys: back to the start, then trick by trick; the position is in the address.
  await page.keyboard.press("Home");
  await page.waitForURL(/step=0$/);
  await page.keyboard.press("ArrowDown");
  await page.locator(".trick.complete").waitFor();
  const first = Number(await page.locator(".trick.complete figure.winning").getAttribute("data-seat"));
  if (first !== expected[0]) throw new Error(`first trick won by ${first}, not ${expected[0]}`);
  await page.screenshot({ path: join(out, "replay-trick.png"), fullPage: true });
  await page.reload();
  await page.locator(".trick.complete").waitFor();
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() => !document.querySelector(".trick.complete"));
});

await test("the ruleset pages offer the printable sheets", async (page) => {
  await page.goto(base);
  await page.locator("#preset").selectOption("mura-4");
  await page.locator("#create .rules-link").click();
  await page.waitForURL(/\/rules\/mura-4$/);
  await page.locator(".sheets").waitFor();
  const links = await page.locator(".sheets a").count();
  if (links !== 16) throw new Error(`${links} sheet links`);
  // The rules themselves, as the printed sheet words them, in the reader's language; the
  // options by their labels, never their ids.
  const heads = async () => page.locator(".rules-text section h2").allInnerTexts();
  if (!(await heads()).includes("Players and cards")) throw new Error(`the rules page's sections are ${JSON.stringify(await heads())}`);
  const labels = await page.locator(".options-table th").allInnerTexts();
  // Each option with a one-line explanation, on the rules page as in the lobby's form.
  if ((await page.locator(".options-table th .option-help").count()) !== labels.length) throw new Error("an option has no explanation on the rules page");
  if (!labels.length || labels.some((l) => /_/.test(l))) throw new Error(`the options are labelled ${JSON.stringify(labels)}`);
  await fitsPhone(page, "the rules page");
  await shots(page, "rules");
  await page.locator("button.lang").click();
  await page.waitForFunction(() => document.documentElement.lang === "ja" && document.body.dataset.ready);
  await page.locator(".rules-text section h2").first().waitFor();
  if (!(await heads()).includes("人数とカード")) throw new Error(`the Japanese rules page's sections are ${JSON.stringify(await heads())}`);
  await page.locator("button.lang").click();
  await page.waitForFunction(() => document.documentElement.lang === "en" && document.body.dataset.ready);
  const pdf = await page.locator(".sheets tr[data-kind=scores] a[data-format=pdf][data-lang=ja]").getAttribute("href");
  const res = await fetch(base + pdf);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (!res.ok || res.headers.get("content-type") !== "application/pdf" || bytes.subarray(0, 4).toString() !== "%PDF") {
    throw new Error(`${pdf}: ${res.status} ${res.headers.get("content-type")} ${bytes.subarray(0, 8)}`);
  }
  // The compare sheet: this game's forms side by side.
  const compare = await page.locator(".sheets tr[data-kind=compare] a[data-format=html][data-lang=en]").getAttribute("href");
  const sheet = await fetch(base + compare);
  const html = await sheet.text();
  if (!sheet.ok || !html.includes("The rules side by side") || !html.includes("Mura")) throw new Error(`${compare}: ${sheet.status}`);
  // HTML in a new tab, in the language asked for.
  const [tab] = await Promise.all([
    page.context().waitForEvent("page"),
    page.locator(".sheets tr[data-kind=rules] a[data-format=html][data-lang=ja]").click(),
  ]);
  await tab.waitForLoadState();
  const title = await tab.title();
  if (!title.includes("ムーラ")) throw new Error(`sheet title ${title}`);
  await tab.close();
  // A finished table's own rules page, from its history.
  if (tableUrl) {
    await page.goto(`${tableUrl}/rules`);
    await page.locator(".sheets").waitFor();
    const href = await page.locator(".sheets tr[data-kind=scorepad] a[data-format=pdf][data-lang=en]").getAttribute("href");
    if (!href.startsWith(`/api/tables/${tableUrl.split("/").pop()}/sheet`)) throw new Error(`table sheet link ${href}`);
    const r = await fetch(base + href);
    if (!r.ok || Buffer.from(await r.arrayBuffer()).subarray(0, 4).toString() !== "%PDF") throw new Error(`${href}: ${r.status}`);
  }
});

/** Creates a one-deal table against random bots from the lobby (in the lobby's language). */
async function createAgainstBots(page, preset, extra = {}) {
  await page.locator("#name").fill("Aki");
  await page.locator("#preset").selectOption(preset);
  const deals = page.locator("[name=deals]:not([data-kind])");
  if (await deals.count()) await deals.fill("1");
  if (extra.timer) await page.locator("#timer").fill(String(extra.timer));
  await page.locator("#fill").selectOption("beginner");
  await page.locator("#create button[type=submit]").click();
  await page.waitForURL(/\/t\/[0-9a-f]+$/);
}

for (const [lang, preset, hand] of [["en", "mini-misere-4", "Your hand"], ["ja", "mini-misere-5", "手札"]]) {
  await test(`reload mid-game and play on to the end (${lang})`, async (page) => {
    await page.goto(base);
    if (lang === "ja") {
      await page.locator("button.lang").click();
      await page.getByText("新しいテーブル").waitFor();
    }
    await createAgainstBots(page, preset);
    await page.locator(".hand .card").first().waitFor();
    await playToTheEnd(page, { stopAfter: 2 });
    const url = page.url();
    await page.reload();
    if (page.url() !== url) throw new Error(`reloaded to ${page.url()}`);
    await page.locator(".seat-box.me").waitFor();
    await page.getByText(hand, { exact: true }).waitFor();
    const htmlLang = await page.evaluate(() => document.documentElement.lang);
    if (htmlLang !== lang) throw new Error(`the page is in ${htmlLang} after the reload`);
    await playToTheEnd(page);
    await page.locator(".game-over .history-link").waitFor();
    if (lang === "ja") await page.getByText("ゲーム終了").first().waitFor();
  });
}

await test("a move timer counts down the seconds of the seat to act", async (page) => {
  await page.goto(base);
  await createAgainstBots(page, "mini-misere-4", { timer: 30 });
  const mine = page.locator(".countdown.mine");
  await mine.waitFor();
  const seconds = async () => Number((await mine.innerText()).match(/(\d+)/)?.[1]);
  const first = await seconds();
  if (!(first > 20 && first <= 30)) throw new Error(`countdown at ${first}`);
  await page.screenshot({ path: join(out, "timer.png"), fullPage: true });
  await page.waitForTimeout(1300);
  const later = await seconds();
  if (!(later < first)) throw new Error(`countdown from ${first} to ${later}`);
  // The game is on: no history or replay yet, for anyone.
  const url = page.url();
  await page.goto(`${url}/history`);
  await page.locator(".not-over").waitFor();
  await page.goto(`${url}/replay`);
  await page.locator(".not-over").waitFor();
  const record = await fetch(`${base}/api/tables/${url.split("/").pop()}/record`);
  if (record.status !== 409) throw new Error(`record of a game in progress: ${record.status}`);
});

await test("declare the Lot with the first card, then play it", async (page) => {
  await page.goto(base);
  await page.locator("#name").fill("Aki");
  await page.locator("#preset").selectOption("mini-misere-4");
  await page.locator("[name=deals]").fill("1");
  await page.locator("#fill").selectOption("beginner");
  await page.locator("#create button[type=submit]").click();
  await page.waitForURL(/\/t\/[0-9a-f]+$/);
  const lot = page.locator(".ask button[data-action='lot']");
  await lot.waitFor();
  await lot.click();
  await page.locator(".seat-box.me .badge.lot").waitFor();
  if (await lot.count()) throw new Error("the Lot could be declared twice");
  await page.locator(".hand button.card:not([disabled])").first().click();
  await page.locator("button.confirm").click();
  await playToTheEnd(page);
  await page.screenshot({ path: join(out, "lot-game-over.png"), fullPage: true });
});

await test("a table that does not exist says so", async (page) => {
  await page.goto(`${base}/t/000000000000`);
  await page.locator(".game-over h2").waitFor();
  const text = await page.locator(".game-over h2").innerText();
  if (!text.includes("000000000000")) throw new Error(`shown: ${text}`);
});

await test("a spectator sees no hand", async (page) => {
  if (!tableUrl) throw new Error("no table");
  await page.goto(tableUrl);
  await page.locator(".seat-box").first().waitFor();
  if (await page.locator(".hand").count()) throw new Error("a spectator was shown a hand");
});

await test("host seats a bot, a guest joins by link, the game starts and a Japanese table renders", async (page, _context, errors) => {
  await page.goto(base);
  await page.locator("#name").fill("Aki");
  await page.locator("#preset").selectOption("mura-3");
  await page.locator("#fill").selectOption("");
  await page.locator("#create button[type=submit]").click();
  await page.waitForURL(/\/t\/[0-9a-f]+$/);
  const url = page.url();
  await page.locator(".seat-box[data-seat='1'] button.add-bot").click();
  await page.locator(".seat-box[data-seat='1'].kind-bot").waitFor();
  const guest = await guardedContext(errors, { locale: "ja-JP" });
  const gpage = await guest.newPage();
  await gpage.addInitScript(() => localStorage.setItem("torite-name", "Ben"));
  await gpage.goto(url);
  await gpage.locator(".seat-box[data-seat='2'] button.join").click();
  await page.locator(".seat-box[data-seat='2'].kind-human").waitFor();
  await page.locator("button.start").click();
  await gpage.locator(".hand .card").first().waitFor();
  await gpage.getByText("手札").waitFor();
  await gpage.screenshot({ path: join(out, "table-ja.png"), fullPage: true });
  await guest.close();
});

/** Posts JSON to the server's API; the answer's JSON, or an error naming the status and message. */
async function post(path, body) {
  const res = await fetch(`${base}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${data?.error}`);
  return data;
}

/** Makes this page's browser hold `token` for seat `seat` of table `id` (as after joining). */
async function holdSeat(page, id, seat, token) {
  await page.addInitScript(([i, s, tk]) => {
    localStorage.setItem(`torite-token-${i}`, tk);
    localStorage.setItem(`torite-seat-${i}`, String(s));
  }, [id, seat, token]);
}

await test("long names are isolated and cut, and never widen a phone's page", async (page) => {
  if (LONG_NAMES.some((n) => [...n].length > 24)) throw new Error("a test name is longer than the server takes");
  const made = await post("/api/tables", { ruleset: "mini-misere-5", name: LONG_NAMES[0] });
  for (let seat = 1; seat < 5; seat++) await post(`/api/tables/${made.id}/join`, { seat, name: LONG_NAMES[seat] });
  await post(`/api/tables/${made.id}/start`, { token: made.token });
  await holdSeat(page, made.id, made.seat, made.token);
  for (const lang of ["en", "ja"]) {
    await page.goto(base);
    if ((await page.evaluate(() => document.documentElement.lang)) !== lang) {
      await page.locator("button.lang").click();
      await page.waitForFunction((l) => document.documentElement.lang === l, lang);
    }
    const row = page.locator(`.table-row[data-table="${made.id}"]`);
    await row.waitFor();
    if ((await row.locator("bdi.name").count()) !== 5) throw new Error("the lobby does not isolate every name");
    await fitsPhone(page, `lobby (${lang})`);
    await page.goto(`${base}/t/${made.id}`);
    await page.locator(".hand .card").first().waitFor();
    // Every seat's name is isolated, on one line and cut to its box.
    for (let seat = 0; seat < 5; seat++) {
      const name = page.locator(`.seat-box[data-seat='${seat}'] .seat-title bdi.name`);
      if ((await name.getAttribute("title")) !== LONG_NAMES[seat]) throw new Error(`seat ${seat} shows ${await name.getAttribute("title")}`);
      // Measured once the seat is laid out (a state arriving re-renders the seats), for up to 5 s.
      const measure = (el) => {
        const box = el.closest(".seat-box").getBoundingClientRect();
        const r = el.getBoundingClientRect();
        return { shown: r.width > 0, cut: el.scrollWidth > el.clientWidth, inside: r.left >= box.left && r.right <= box.right };
      };
      let fit = await name.evaluate(measure);
      for (let i = 0; i < 50 && !(fit.shown && fit.cut && fit.inside); i++) {
        await page.waitForTimeout(100);
        fit = await name.evaluate(measure);
      }
      const { shown, cut, inside } = fit;
      if (!shown || !cut || !inside) throw new Error(`seat ${seat}'s name is ${shown ? "" : "not shown"}${cut ? "" : " not cut"}${inside ? "" : " outside its box"}`);
    }
    await fitsPhone(page, `table (${lang})`);
    // The others joined but never connected: they are shown away (for how long), and the host
    // is told when a bot may take their seats.
    const away = await page.locator(".seat-box[data-seat='1'] .seat-kind.away").innerText();
    if (!(lang === "en" ? /^away for \d+ s$/ : /^\d+秒前から不在$/).test(away)) throw new Error(`absent seat shows ${JSON.stringify(away)}`);
    const wait = await page.locator(".seat-box[data-seat='1'] .replace-wait").innerText();
    const left = Number(wait.match(/(\d+)/)?.[1]);
    if (!(left > 30 && left <= 60)) throw new Error(`replace countdown ${JSON.stringify(wait)}`);
    if (await page.locator("button.replace").count()) throw new Error("a bot is offered before the person has been away long enough");
    await shots(page, `long-names-${lang}`);
  }
});

await test("while the server is down the table says so and play waits, then resumes", async (page, context) => {
  await page.goto(base);
  await createAgainstBots(page, "mini-misere-4");
  const playable = page.locator(".hand button.card:not([disabled])");
  await playable.first().waitFor();
  await page.locator(".table-view[data-live='1']").waitFor();
  // A card chosen just before the connection goes: its confirm must not be usable.
  await playable.first().click();
  await page.locator("button.confirm").waitFor();
  await stopServer();
  const banner = page.locator(".conn-banner");
  await banner.waitFor({ timeout: 5000 });
  await page.waitForFunction(() => /reconnecting in \d+ s/.test(document.querySelector(".conn-banner")?.textContent ?? ""), null, { timeout: 5000 })
    .catch(async () => { throw new Error(`the banner says ${JSON.stringify(await banner.innerText())}`); });
  if (await playable.count()) throw new Error("cards are playable while the server is down");
  if (await page.locator("button.confirm:not([disabled]), .ask button:not([disabled])").count()) throw new Error("an action is offered while the server is down");
  await page.locator(".seat-box.me .seat-kind.offline").waitFor();
  await shots(page, "table-offline");
  await startServer();
  await page.locator(".table-view[data-live='1']").waitFor({ timeout: 20000 });
  if (await banner.count()) throw new Error("the banner stays once the connection is back");
  await page.locator(".seat-box.me .seat-kind.online").waitFor();
  // Stopped as a service is (SIGTERM): the server closes the socket saying it is going away,
  // and the page says the server is restarting.
  await stopServer("SIGTERM");
  await page.waitForFunction(() => /The server is restarting: reconnecting in \d+ s/.test(document.querySelector(".conn-banner")?.textContent ?? ""), null, { timeout: 5000 })
    .catch(async () => { throw new Error(`after SIGTERM the banner says ${JSON.stringify(await banner.innerText().catch(() => null))}`); });
  await startServer();
  await page.locator(".table-view[data-live='1']").waitFor({ timeout: 20000 });
  // The browser itself goes offline: the socket is let go at once, and taken again when back.
  await context.setOffline(true);
  await page.locator(".conn-banner[data-conn=offline]").waitFor({ timeout: 5000 });
  if (await playable.count()) throw new Error("cards are playable while offline");
  await context.setOffline(false);
  await page.locator(".table-view[data-live='1']").waitFor({ timeout: 10000 });
  await playToTheEnd(page);
  await page.locator(".game-over .history-link").waitFor();
});

await test("a seat given to a bot while its person was away: told so, then watching", async (page) => {
  // The upgrade refused: this browser held seat 1, which has a bot in it now (the server gives
  // a person's seat away only after a minute's absence, so the seat is a bot's from the start
  // here and the browser's token is one the server does not know).
  const made = await post("/api/tables", { ruleset: "mini-misere-4", name: "Aki", fill: "random", start: true });
  await holdSeat(page, made.id, 1, "0".repeat(32));
  await page.goto(`${base}/t/${made.id}`);
  const notice = page.locator(".replaced");
  await notice.waitFor();
  if (!(await notice.innerText()).includes("Your seat was given to a bot while you were away")) throw new Error(`shown: ${await notice.innerText()}`);
  if (await page.evaluate((i) => localStorage.getItem(`torite-token-${i}`), made.id)) throw new Error("the dead token is kept");
  await shots(page, "replaced");
  await page.locator(".replaced button.watch").click();
  await page.locator(".table-view[data-live='1']").waitFor();
  await page.getByText("You are watching.", { exact: true }).waitFor();
  if (await page.locator(".hand").count()) throw new Error("a spectator was shown a hand");
  // The same over an open socket: the server's `replaced` message, then it closes.
  const mine = await post("/api/tables", { ruleset: "mini-misere-4", name: "Aki", fill: "random", start: true });
  await holdSeat(page, mine.id, mine.seat, mine.token);
  await page.goto(`${base}/t/${mine.id}`);
  await page.locator(".hand .card").first().waitFor();
  await page.routeWebSocket(/\/ws\//, (ws) => {
    ws.connectToServer();
    setTimeout(() => ws.send(JSON.stringify({ type: "replaced", seat: mine.seat })), 200);
  });
  await page.reload();
  await notice.waitFor();
  if (await page.evaluate((i) => localStorage.getItem(`torite-token-${i}`), mine.id)) throw new Error("the token is kept after `replaced`");
});

await test("a token that holds no seat at the table is let go: the page watches", async (page) => {
  const made = await post("/api/tables", { ruleset: "mini-misere-4", name: "Aki", fill: "random", start: true });
  await page.addInitScript((i) => localStorage.setItem(`torite-token-${i}`, "f".repeat(32)), made.id);
  await page.goto(`${base}/t/${made.id}`);
  await page.getByText("You are watching.", { exact: true }).waitFor();
  await page.getByText("This browser no longer holds a seat at this table: you are watching.").waitFor();
  if (await page.locator(".hand").count()) throw new Error("a hand is shown");
});

await test("refused requests are told in words, never as raw JSON", async (page) => {
  await page.goto(base);
  await page.locator("#name").fill("Aki");
  const submit = page.locator("#create button[type=submit]");
  const status = page.locator("#create .error");
  const answers = [
    [{ status: 429, contentType: "application/json", body: '{"error":"too many tables created from this address: wait a minute"}' }, "Too many requests: wait a moment and try again."],
    [{ status: 413, contentType: "application/json", body: '{"error":"the body is over 16 KiB"}' }, "That is more than the server accepts."],
    [{ status: 502, contentType: "text/html", body: "<html><body>Bad gateway</body></html>" }, "The server failed (status 502): try again in a moment."],
    [{ status: 409, contentType: "application/json", body: '{"error":"seat 1 is taken"}' }, "seat 1 is taken"],
    // A code the catalogs know is worded from them with its arguments, not from `error`; an
    // unknown one falls back to the server's English.
    [{ status: 409, contentType: "application/json", body: '{"error":"(server words)","code":"seat-taken","args":{"seat":"2"}}' }, "seat 2 is taken"],
    [{ status: 400, contentType: "application/json", body: '{"error":"name refused","code":"name-character","args":{"character":"U+202E","why":{"key":"char-bidi"}}}' }, "names may not contain U+202E (a bidirectional control)"],
    [{ status: 409, contentType: "application/json", body: '{"error":"a refusal from a newer server","code":"not-yet-known","args":{}}' }, "a refusal from a newer server"],
  ];
  for (const [answer, shown] of answers) {
    await page.route("**/api/tables", (route) => (route.request().method() === "POST" ? route.fulfill(answer) : route.continue()));
    await submit.click();
    await page.waitForFunction((s) => document.querySelector("#create .error")?.textContent === s, shown, { timeout: 5000 })
      .catch(async () => { throw new Error(`${answer.status}: shown ${JSON.stringify(await status.innerText())}, not ${JSON.stringify(shown)}`); });
    await page.unroute("**/api/tables");
  }
});

await test("the server's refusals are shown in Japanese on a Japanese page", async (page, context) => {
  // A name the server refuses (a bidirectional control in it): its code and arguments, in words.
  await page.goto(base);
  await page.locator("button.lang").click();
  await page.getByText("新しいテーブル").waitFor();
  await page.locator("#name").fill("Aki\u202E");
  await page.locator("#create button[type=submit]").click();
  const status = page.locator("#create .error");
  const named = "名前に U+202E（文字の向きを変える制御文字）は使えません";
  await page.waitForFunction((s) => document.querySelector("#create .error")?.textContent === s, named, { timeout: 5000 })
    .catch(async () => { throw new Error(`shown ${JSON.stringify(await status.innerText())}, not ${JSON.stringify(named)}`); });
  await page.screenshot({ path: join(out, "refusal-name-ja.png"), fullPage: true });
  // A card from outside the hand, sent on the table's socket when the seat is to act: the
  // server's error (code not-in-hand, the card as its argument) is told in Japanese.
  const made = await post("/api/tables", { ruleset: "mini-misere-4", name: "Aki", fill: "random", start: true });
  await holdSeat(page, made.id, made.seat, made.token);
  let sent = null;
  await page.routeWebSocket(/\/ws\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => {
      ws.send(m);
      const msg = JSON.parse(String(m));
      if (sent || msg.type !== "state" || msg.to_act !== made.seat || !msg.hand?.length) return;
      const deck = [..."AKQJT98765432"].flatMap((r) => [..."SHDC"].map((s) => r + s));
      sent = deck.find((c) => !msg.hand.includes(c));
      server.send(JSON.stringify({ type: "act", action: sent, version: msg.version }));
    });
  });
  await page.goto(`${base}/t/${made.id}`);
  const toast = page.locator(".toast");
  await toast.waitFor({ timeout: 10000 });
  const said = await toast.innerText();
  if (said !== `${sent}は手札にありません`) throw new Error(`the refusal is shown as ${JSON.stringify(said)}`);
  await page.screenshot({ path: join(out, "refusal-card-ja.png"), fullPage: true });
});

/** Fails when something sticks out of the page's width, or a seat's name is cut to nothing. */
async function fitsWidth(page, width, where) {
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  if (wide > width) {
    // Name the innermost elements that reach past the window's edge.
    const past = await page.evaluate((w) => [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > w + 0.5 && ![...e.children].some((c) => c.getBoundingClientRect().right > w + 0.5))
      .slice(0, 3).map((e) => `${e.closest("details, section, .modal")?.className ?? ""} ${e.tagName.toLowerCase()}.${[...e.classList].join(".")} "${e.textContent.slice(0, 30)}" to ${Math.round(e.getBoundingClientRect().right)} px`), width);
    throw new Error(`${where}: the page is ${wide} px wide in a ${width} px window (${past.join("; ")})`);
  }
  const names = await page.locator(".seat-box .seat-title .name").evaluateAll((els) =>
    els.map((e) => ({ text: e.textContent, shown: e.clientWidth, needed: e.scrollWidth })));
  for (const n of names) {
    if (n.shown < n.needed) throw new Error(`${where}: the seat name ${JSON.stringify(n.text)} is cut (${n.shown} of ${n.needed} px)`);
  }
}

/**
 * Fails when a closed choice of the new-table form would cut the words of one of its choices
 * ("with the first ca…"), for the house rules of every game.
 */
async function choicesReadInFull(page, where) {
  const presets = await page.locator("#preset option").evaluateAll((els) => els.map((e) => e.value));
  const chosen = await page.locator("#preset").inputValue();
  for (const preset of presets) {
    await page.locator("#preset").selectOption(preset);
    await choicesOfOneGameReadInFull(page, `${where}, ${preset}`);
  }
  await page.locator("#preset").selectOption(chosen);
}

/**
 * Fails when a closed choice of the game now chosen in the new-table form is narrower than the
 * widest of its choices, measured in the control's own font.
 */
async function choicesOfOneGameReadInFull(page, where) {
  const cut = await page.locator("#create select").evaluateAll((els) => els.map((e) => {
    const style = getComputedStyle(e);
    const context = document.createElement("canvas").getContext("2d");
    context.font = style.font;
    // Whichever choice is made must read in full: the widest of them.
    const width = (t) => context.measureText(t).width;
    const text = [...e.options].map((o) => o.text).reduce((a, b) => (width(b) > width(a) ? b : a), "");
    // The room for the words: the control less its padding and the drop-down arrow's ~20 px.
    const room = e.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
    return { name: e.name, text, needed: Math.ceil(width(text)), room: Math.floor(room) };
  }).filter((c) => c.needed > c.room));
  if (cut.length) throw new Error(`${where}: ${cut.map((c) => `the choice ${JSON.stringify(c.text)} of ${c.name} is cut (${c.room} of ${c.needed} px)`).join("; ")}`);
}

/** Fails when two seat boxes of the table overlap. */
async function seatsApart(page, where) {
  const boxes = await page.locator(".table-area > .seat-box").evaluateAll((els) => els.map((e) => {
    const r = e.getBoundingClientRect();
    return { seat: e.dataset.seat, l: r.left, r: r.right, t: r.top, b: r.bottom };
  }));
  for (const a of boxes) {
    for (const b of boxes) {
      if (a.seat < b.seat && a.l < b.r - 1 && b.l < a.r - 1 && a.t < b.b - 1 && b.t < a.b - 1) throw new Error(`${where}: seats ${a.seat} and ${b.seat} overlap`);
    }
  }
}

/**
 * Fails unless each card on the table is nearer its own player's seat box than any other
 * seat's (centre to centre); returns how many cards were checked.
 */
async function cardsBeforeTheirPlayers(page, where) {
  const found = await page.evaluate(() => {
    const centre = (e) => {
      const r = e.getBoundingClientRect();
      return { x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 };
    };
    const seats = [...document.querySelectorAll(".table-area > .seat-box")].map((e) => ({ seat: e.dataset.seat, ...centre(e) }));
    return [...document.querySelectorAll(".table-area .spot")].map((e) => {
      const c = centre(e);
      const d = seats.map((s) => ({ seat: s.seat, d: Math.hypot(s.x - c.x, s.y - c.y) })).sort((a, b) => a.d - b.d);
      return { seat: e.dataset.seat, nearest: d[0].seat };
    });
  });
  for (const f of found) {
    if (f.seat !== f.nearest) throw new Error(`${where}: seat ${f.seat}'s card is nearest seat ${f.nearest}`);
  }
  return found.length;
}

for (const [preset, players] of [["mini-misere-3", 3], ["mini-misere-4", 4], ["mini-misere-5", 5]]) {
  await test(`${players} seats round the table: each card before its player, the finished trick kept in view (desktop and phone)`, async (page) => {
    const made = await post("/api/tables", { ruleset: { base: preset, deals: 1 }, name: "Aki", fill: "heuristic", start: true, seed: 3 });
    await holdSeat(page, made.id, made.seat, made.token);
    await page.goto(`${base}/t/${made.id}`);
    await page.locator(".hand .card").first().waitFor();
    const seats = await page.locator(".table-area > .seat-box").count();
    if (seats !== players) throw new Error(`${seats} seats round the table`);
    // Bots seated by their algorithm's id are called by what they are, in words.
    const titles = await page.locator(".table-area .seat-title").allInnerTexts();
    if (titles.some((x) => /heuristic/.test(x)) || !titles.some((x) => x.includes("Rule of thumb"))) throw new Error(`the seats are called ${JSON.stringify(titles)}`);
    // The reader's seat is at the bottom.
    const lowest = await page.evaluate(() => {
      const boxes = [...document.querySelectorAll(".table-area > .seat-box")];
      const bottom = (e) => Math.round(e.getBoundingClientRect().bottom);
      const mine = boxes.find((e) => e.classList.contains("me"));
      return mine && bottom(mine) >= Math.max(...boxes.map(bottom));
    });
    if (!lowest) throw new Error("the reader's seat is not at the bottom");
    // Play a card: the bots answer at once, so the trick is completed and kept in view with
    // every card, the winner's marked.
    const card = page.locator(".hand button.card:not([disabled])").first();
    await card.click();
    await page.locator("button.confirm").click();
    await page.locator(".trick.kept").waitFor({ timeout: 5000 });
    const kept = await page.locator(".trick.kept .spot").count();
    if (kept !== players) throw new Error(`the kept trick shows ${kept} cards`);
    if ((await page.locator(".trick.kept .spot.winning").count()) !== 1) throw new Error("the kept trick does not mark its winner");
    for (const [width, height] of [[1280, 800], [390, 844]]) {
      await page.setViewportSize({ width, height });
      await page.waitForTimeout(50);
      if ((await cardsBeforeTheirPlayers(page, `${players} seats at ${width} px`)) !== players) throw new Error("the cards went before they were measured");
      await seatsApart(page, `${players} seats at ${width} px`);
      await fitsWidth(page, width, `${players} seats`);
    }
    if (!(await page.locator(".trick.kept").count())) throw new Error("the trick went before about a second and a half");
    if (players === 4) await shots(page, "kept-trick");
    // Then it goes to its winner, and the table goes on.
    await page.locator(".trick.kept").waitFor({ state: "detached", timeout: 4000 });
  });
}

/** Plays this page's first playable card (select, then confirm); false if it has none. */
async function playOne(page) {
  const quick = { timeout: 2000 };
  const card = page.locator(".hand button.card:not([disabled])").first();
  if (!(await card.count())) return false;
  if (!(await card.click(quick).then(() => true, () => false))) return false;
  return page.locator("button.confirm").click(quick).then(() => true, () => false);
}

await test("undo against bots: the last card comes back to the hand, twice over", async (page) => {
  const made = await post("/api/tables", { ruleset: { base: "mura-3", deals: 1 }, name: "Aki", fill: "heuristic", start: true, seed: 5 });
  await holdSeat(page, made.id, made.seat, made.token);
  await page.goto(`${base}/t/${made.id}`);
  await page.locator(".hand button.card:not([disabled])").first().waitFor();
  if (await page.locator("button.undo").count()) throw new Error("an undo is offered before the seat has played");
  const hand = () => page.locator(".hand .card").count();
  const full = await hand();
  for (let n = 1; n <= 2; n++) {
    if (!(await playOne(page))) throw new Error("no card to play");
    await page.waitForFunction((k) => document.querySelectorAll(".hand .card").length === k, full - n);
    await page.locator(".hand button.card:not([disabled])").first().waitFor();
  }
  // Sounds are off until turned on, and the choice is remembered.
  if ((await page.locator("button.sound").getAttribute("aria-pressed")) !== "false") throw new Error("sounds are on by default");
  await page.locator("button.sound").click();
  await page.reload();
  await page.locator(".hand .card").first().waitFor();
  if ((await page.locator("button.sound").innerText()) !== "Sound on") throw new Error("the choice of sounds was not remembered");
  const label = await page.locator("button.undo").innerText();
  if (!label.includes("Undo my last move")) throw new Error(`the undo button says ${JSON.stringify(label)}`);
  await shots(page, "undo-bots");
  for (let n = 1; n <= 2; n++) {
    await page.locator("button.undo").click();
    await page.waitForFunction((k) => document.querySelectorAll(".hand .card").length === k, full - 2 + n);
  }
  if (await page.locator("button.undo").count()) throw new Error("an undo is offered with nothing left to undo");
  // The record of the finished game holds only the final sequence.
  await playToTheEnd(page);
  const record = await (await fetch(`${base}/api/tables/${made.id}/record`)).json();
  const cards = record.deals[0].hands.reduce((n, h) => n + (Array.isArray(h) ? h.length : h.split(/[ ,]+/).filter(Boolean).length), 0);
  if (record.deals[0].actions.length !== cards) throw new Error(`the record holds ${record.deals[0].actions.length} actions for ${cards} cards`);
});

await test("undo between two people: asked of the other, accepted, and the card comes back", async (page, _context, errors) => {
  const made = await post("/api/tables", { ruleset: "mini-misere-4", name: "Aki" });
  const ben = await post(`/api/tables/${made.id}/join`, { seat: 1, name: "Ben" });
  for (const seat of [2, 3]) await post(`/api/tables/${made.id}/bot`, { seat, bot: "heuristic", token: made.token });
  await post(`/api/tables/${made.id}/start`, { token: made.token });
  await holdSeat(page, made.id, made.seat, made.token);
  const guest = await guardedContext(errors, { locale: "ja-JP" });
  const gpage = await guest.newPage();
  await holdSeat(gpage, made.id, 1, ben.token);
  await page.goto(`${base}/t/${made.id}`);
  await gpage.goto(`${base}/t/${made.id}`);
  await page.locator(".hand .card").first().waitFor();
  await gpage.locator(".hand .card").first().waitFor();
  // Play until Aki has just played a card and nobody else has since.
  for (let step = 0; step < 60 && !(await page.locator("button.undo[data-way='ask']").count()); step++) {
    if (!(await playOne(page)) && (await gpage.locator(".hand button.card:not([disabled])").count())) await playOne(gpage);
    await page.waitForTimeout(150);
  }
  await page.locator("button.undo[data-way='ask']").waitFor({ timeout: 2000 });
  const before = await page.locator(".hand .card").count();
  await page.locator("button.undo").click();
  await page.locator(".undo-request.mine").waitFor();
  // Ben is asked, in Japanese, and accepts.
  const asked = gpage.locator(".undo-request.ask");
  await asked.waitFor();
  const words = (await asked.innerText()).replace(/[\u2066-\u2069]/g, "");
  if (!words.includes("Akiが最後の手の取り消しを求めています。")) throw new Error(`Ben is asked ${JSON.stringify(words)}`);
  await fitsWidth(gpage, 390, "the undo request");
  await gpage.screenshot({ path: join(out, "undo-request-ja-phone.png"), fullPage: true });
  await gpage.locator(".undo-request button.accept").click();
  await page.waitForFunction((k) => document.querySelectorAll(".hand .card").length === k + 1, before);
  await page.locator(".hand button.card:not([disabled])").first().waitFor();
  if (await page.locator(".undo-request").count()) throw new Error("the request is still shown once accepted");
  await guest.close();
});

await test("under prefers-reduced-motion the cards do not move", async (_page, _context, errors) => {
  const context = await guardedContext(errors, { locale: "en-US", reducedMotion: "reduce" });
  const page = await context.newPage();
  const made = await post("/api/tables", { ruleset: { base: "mini-misere-4", deals: 1 }, name: "Aki", fill: "heuristic", start: true, seed: 3 });
  await holdSeat(page, made.id, made.seat, made.token);
  await page.goto(`${base}/t/${made.id}`);
  await page.locator(".hand .card").first().waitFor();
  if (!(await playOne(page))) throw new Error("no card to play");
  await page.locator(".table-area .spot").first().waitFor();
  const moving = await page.locator(".table-area .spot").evaluateAll((els) =>
    els.filter((e) => getComputedStyle(e).animationName !== "none" || getComputedStyle(e).transitionDuration !== "0s").length);
  if (moving) throw new Error(`${moving} cards move under prefers-reduced-motion`);
  await context.close();
});

await test("six seats against five bots fit a desktop and a 390 px phone, and a whole deal is played", async (page) => {
  await page.goto(base);
  await page.locator("#name").fill("Aki");
  await page.locator("#preset").selectOption("mini-misere-6");
  await page.locator("[name=deals]").fill("1");
  await page.locator("#fill").selectOption("beginner");
  await page.locator("#create button[type=submit]").click();
  await page.waitForURL(/\/t\/[0-9a-f]+$/);
  await page.locator(".hand .card").first().waitFor();
  const seats = await page.locator(".seat-box").count();
  if (seats !== 6) throw new Error(`${seats} seats shown`);
  const title = await page.locator(".table-head h2").innerText();
  if (title !== "Mini Misère (6 players)") throw new Error(`the table is titled ${JSON.stringify(title)}`);
  const cards = await page.locator(".hand .card").count();
  if (cards !== 6) throw new Error(`${cards} cards in the hand`);
  await fitsWidth(page, 390, "six seats on a phone");
  await page.setViewportSize({ width: 1280, height: 800 });
  await fitsWidth(page, 1280, "six seats on a desktop");
  // On a desktop the six seats sit round the table without covering one another.
  await seatsApart(page, "six seats on a desktop");
  await page.setViewportSize(phone.viewport);
  await shots(page, "six-seats");
  await playToTheEnd(page);
  await page.locator(".game-over .history-link").waitFor();
  await fitsWidth(page, 390, "six seats, game over");
  // The deal's summary of six seats, then the table under it.
  const close = page.locator(".modal button.close");
  if (await close.count()) {
    await page.screenshot({ path: join(out, "six-seats-summary.png") });
    await close.click();
  }
  await shots(page, "six-seats-over");
  // The lobby lists the table with its house rule in words.
  const id = page.url().split("/").pop();
  await page.goto(base);
  const rule = page.locator(`.table-row[data-table='${id}'] .house-rules`);
  await rule.waitFor();
  const said = await rule.innerText();
  if (said !== "House rules: Number of deals: 1 deal") throw new Error(`the lobby shows the house rule as ${JSON.stringify(said)}`);
  // The list is filtered: the finished table under Finished, not under Open seats; on a
  // phone the form to create a table comes first.
  await page.locator(".filter[data-filter=finished]").click();
  // The table is listed under All too: wait for the list redrawn under Finished.
  await page.locator(".filter[data-filter=finished][aria-pressed=true]").waitFor();
  await page.locator(`.table-row[data-table='${id}']`).waitFor();
  if ((await page.locator(".table-row:not(.status-finished)").count())) throw new Error("the Finished filter lists unfinished tables");
  await page.locator(".filter[data-filter=open]").click();
  await page.locator(".filter[data-filter=open][aria-pressed=true]").waitFor();
  await page.locator(`.table-row[data-table='${id}']`).waitFor({ state: "detached" });
  if ((await page.locator(".table-row:not(.status-open)").count())) throw new Error("the Open seats filter lists tables without open seats");
  const formTop = (await page.locator("#create").boundingBox()).y;
  const listTop = (await page.locator(".lobby .list").boundingBox()).y;
  if (formTop > listTop) throw new Error("on a phone the create form is below the table list");
  await fitsPhone(page, "the lobby");
});

/**
 * Plays this page's seat until it is asked the joker's saying: the joker when it would be the
 * trick's third card, else the first card it may play.
 */
async function playToTheJoker(page) {
  const quick = { timeout: 2000 };
  for (let step = 0; step < 400; step++) {
    if (await page.locator(".ask [data-action^='joker:']").count()) return;
    if (await page.locator(".game-over").count()) throw new Error("the game ended without the joker's saying");
    const close = page.locator(".modal button.close");
    if (await close.count()) {
      await close.click(quick).catch(() => {});
      continue;
    }
    // A finished trick kept in view hides the trick after it: a tap sends it to its winner.
    if (await page.locator(".trick.kept").count()) {
      await page.locator(".table-area").click(quick).catch(() => {});
      continue;
    }
    const enabled = page.locator(".hand button.card:not([disabled])");
    if (await enabled.count()) {
      const onTrick = await page.locator(".trick:not(.kept) .spot").count();
      const joker = page.locator(".hand button.card[data-card='JK']:not([disabled])");
      const card = onTrick === 2 && (await joker.count()) ? joker : enabled.first();
      if (await card.click(quick).then(() => true, () => false)) await page.locator("button.confirm").click(quick).catch(() => {});
    }
    await page.waitForTimeout(50);
  }
  throw new Error("the joker's saying was not asked");
}

await test("three players: the joker played last is said to win with a button in the reader's language", async (page) => {
  // Seed 4 with heuristic bots: seat 0, playing the joker as the third card of a trick when it
  // can and otherwise its first playable card, is asked in the third trick. (The bots are
  // deterministic; if they change, search again with the same policy.)
  const made = await post("/api/tables", { ruleset: { base: "mini-misere-3", deals: 1 }, name: "Aki", fill: "heuristic", start: true, seed: 4 });
  await holdSeat(page, made.id, made.seat, made.token);
  await page.goto(`${base}/t/${made.id}`);
  await page.locator(".hand .card").first().waitFor();
  await playToTheJoker(page);
  const buttons = page.locator(".ask button[data-action^='joker:']");
  const words = async () => JSON.stringify(await buttons.allInnerTexts());
  if ((await words()) !== JSON.stringify(["The joker wins", "The joker loses"])) throw new Error(`the saying is offered as ${await words()}`);
  const asked = await page.locator(".ask .prompt").innerText();
  if (asked !== "You played the joker last: say whether it wins or loses the trick.") throw new Error(`asked ${JSON.stringify(asked)}`);
  if (await page.locator(".hand button.card:not([disabled])").count()) throw new Error("a card may be played while the saying is asked");
  await fitsWidth(page, 390, "the joker's saying");
  await shots(page, "joker-saying");
  await page.locator("button.lang").click();
  await page.waitForFunction(() => document.documentElement.lang === "ja" && document.body.dataset.ready);
  await page.locator(".ask button[data-action='joker:win']").waitFor();
  if ((await words()) !== JSON.stringify(["ジョーカーの勝ち", "ジョーカーの負け"])) throw new Error(`the saying is offered in Japanese as ${await words()}`);
  await page.locator("button.lang").click();
  await page.waitForFunction(() => document.documentElement.lang === "en" && document.body.dataset.ready);
  await page.locator(".ask button[data-action='joker:win']").click();
  // The trick is the joker's, and the table says what was said.
  await page.waitForFunction(() => /Aki \(You\) says the joker wins/.test((document.querySelector(".trick")?.textContent ?? "").replace(/[\u2066-\u2069]/g, "")), null, { timeout: 5000 })
    .catch(async () => { throw new Error(`the trick shows ${JSON.stringify(await page.locator(".trick").innerText())}`); });
  await page.screenshot({ path: join(out, "joker-said.png"), fullPage: true });
  await playToTheEnd(page);
  await page.locator(".game-over .history-link").waitFor();
  // The history names the house rule in words.
  await page.goto(`${base}/t/${made.id}/history`);
  const rule = await page.locator(".house-rules").innerText();
  if (rule !== "House rules: Number of deals: 1 deal") throw new Error(`the history shows the house rule as ${JSON.stringify(rule)}`);
  // The bots, seated by their algorithm's id, are called by what they are.
  const page_text = await page.locator("main").innerText();
  if (/heuristic/.test(page_text) || !page_text.includes("Rule of thumb")) throw new Error(`the history names the bots as in ${JSON.stringify(page_text.slice(0, 400))}`);
  // The replay shows the saying at its step, in words.
  const replay = await (await fetch(`${base}/api/tables/${made.id}/replay`)).json();
  const steps = replay.deals[0].steps;
  const k = steps.findIndex((s) => s.action === "joker:win") + 1;
  if (k === 0) throw new Error("the replay has no joker:win");
  await page.goto(`${base}/t/${made.id}/replay?deal=1&step=${k}`);
  await page.locator(".caption").waitFor();
  const caption = (await page.locator(".caption").innerText()).replace(/[\u2066-\u2069]/g, "");
  if (caption !== "Aki says the joker wins — Aki wins the trick") throw new Error(`the replay's caption is ${JSON.stringify(caption)}`);
  await page.locator(".trick .joker-said").waitFor();
  const played = await page.locator(".trick .played figure").count();
  if (played !== 3) throw new Error(`the replay's trick shows ${played} cards`);
  await fitsWidth(page, 390, "the replay of the saying");
  await shots(page, "joker-replay");
});

await (await import("./score.mjs")).default({ test, base, shots, fitsPhone, out, join });
await (await import("./analysis.mjs")).default({ test, base, shots, fitsPhone, playToTheEnd, bin, tmp, join });
await (await import("./profiles.mjs")).default({ test, base, shots, fitsPhone, browser, playToTheEnd });
await (await import("./private.mjs")).default({ test, base, shots, fitsPhone, browser });
await (await import("./chat.mjs")).default({ test, base, shots, fitsPhone, browser });
await (await import("./rematch.mjs")).default({ test, base, shots, fitsPhone, playToTheEnd, browser });
await (await import("./duplicate.mjs")).default({ test, base, shots, fitsPhone, browser, playToTheEnd, out, join });
await (await import("./cluster.mjs")).default({ test, shots, fitsPhone, browser, playToTheEnd, bin, tmp, out, join });
await browser.close();
await stopServer();
rmSync(tmp, { recursive: true, force: true });
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
