// End-to-end tests of the browser client in headless Chromium (Debian's `chromium`, driven by
// playwright-core): a real `torite serve` on 127.0.0.1 with a temporary SQLite file.
//
//   TORITE_BIN=../target/debug/torite node e2e/run.mjs
//
// Prints one line per test and a closing "N passed, N failed" line; exits non-zero on failure.
// Screenshots go to e2e/out/.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
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

const server = spawn(bin, ["serve", "--addr", `127.0.0.1:${port}`, "--db", `sqlite:${join(tmp, "e2e.db")}`, "--instant-bots"], {
  stdio: ["ignore", "inherit", "inherit"],
});

async function waitForServer() {
  for (let i = 0; i < 100; i++) {
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

const browser = await (async () => {
  await waitForServer();
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync"],
  });
})();

const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true };
let passed = 0;
let failed = 0;

async function test(name, f) {
  const context = await browser.newContext({ ...phone, locale: "en-US" });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  try {
    await f(page, context);
    if (errors.length) throw new Error(`page errors: ${errors.join("; ")}`);
    passed++;
    console.log(`ok - ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAILED - ${name}: ${e?.stack ?? e}`);
    await page.screenshot({ path: join(out, `failed-${name.replace(/\W+/g, "-")}.png`) }).catch(() => {});
  } finally {
    await context.close();
  }
}

/** Plays this page's seat until the game is over: select a legal card, then confirm. */
async function playToTheEnd(page) {
  for (let step = 0; step < 400; step++) {
    if (await page.locator(".game-over").count()) return;
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
        await page.locator("button.confirm").click(quick).catch(() => {});
      }
    }
    await page.waitForTimeout(50);
  }
  throw new Error("the game did not end");
}

await test("lobby in English and Japanese", async (page) => {
  await page.goto(base);
  await page.getByText("New table").waitFor();
  await page.screenshot({ path: join(out, "lobby-en.png"), fullPage: true });
  await page.locator("button.lang").click();
  await page.getByText("新しいテーブル").waitFor();
  await page.screenshot({ path: join(out, "lobby-ja.png"), fullPage: true });
  const options = await page.locator("#preset option").count();
  if (options !== 12) throw new Error(`${options} presets listed`);
});

let tableUrl = "";
await test("create a table and play a whole game against bots", async (page) => {
  await page.goto(base);
  await page.locator("#name").fill("Aki");
  await page.locator("#preset").selectOption("mini-misere-4-1989");
  await page.locator("[name=deals]").fill("1");
  await page.locator("#fill").selectOption("heuristic");
  await page.locator("#create button[type=submit]").click();
  await page.waitForURL(/\/t\/[0-9a-f]+$/);
  tableUrl = page.url();
  await page.locator(".seat-box").first().waitFor();
  await page.locator(".hand .card").first().waitFor();
  await page.screenshot({ path: join(out, "table.png"), fullPage: true });
  const seats = await page.locator(".seat-box").count();
  if (seats !== 4) throw new Error(`${seats} seats shown`);
  await playToTheEnd(page);
  await page.locator(".game-over a[download]").waitFor();
  await page.screenshot({ path: join(out, "game-over.png"), fullPage: true });
  const record = await (await fetch(`${base}/api/tables/${tableUrl.split("/").pop()}/record`)).json();
  if (record.ruleset !== "mini-misere-4-1989" && record.ruleset?.base !== "mini-misere-4-1989") {
    throw new Error(`record ruleset ${JSON.stringify(record.ruleset)}`);
  }
});

await test("declare the Lot with the first card, then play it", async (page) => {
  await page.goto(base);
  await page.locator("#name").fill("Aki");
  await page.locator("#preset").selectOption("mini-misere-4");
  await page.locator("[name=deals]").fill("1");
  await page.locator("#fill").selectOption("random");
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

await test("host seats a bot, a guest joins by link, the game starts and a Japanese table renders", async (page, context) => {
  await page.goto(base);
  await page.locator("#name").fill("Aki");
  await page.locator("#preset").selectOption("mura-3");
  await page.locator("#fill").selectOption("");
  await page.locator("#create button[type=submit]").click();
  await page.waitForURL(/\/t\/[0-9a-f]+$/);
  const url = page.url();
  await page.locator(".seat-box[data-seat='1'] button.add-bot").click();
  await page.locator(".seat-box[data-seat='1'].kind-bot").waitFor();
  const guest = await context.browser().newContext({ ...phone, locale: "ja-JP" });
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

await browser.close();
server.kill("SIGKILL");
rmSync(tmp, { recursive: true, force: true });
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
