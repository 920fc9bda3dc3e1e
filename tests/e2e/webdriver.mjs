// A tiny W3C WebDriver client over fetch: just what the end-to-end suite uses, so the
// suite needs nothing from npm (Node's built-in test runner and fetch only).

const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

export const Keys = { ENTER: "\uE007", CONTROL: "\uE009", BACKSPACE: "\uE003" };

export class Session {
  constructor(base, id) {
    this.base = base;
    this.id = id;
  }

  static async start(base, capabilities) {
    const res = await call(base, "POST", "/session", { capabilities: { alwaysMatch: capabilities } });
    return new Session(base, res.sessionId);
  }

  cmd(method, path, body) {
    return call(this.base, method, `/session/${this.id}${path}`, body);
  }

  async find(css) {
    const v = await this.cmd("POST", "/element", { using: "css selector", value: css });
    return elementId(v, css);
  }

  async findAll(css) {
    const v = await this.cmd("POST", "/elements", { using: "css selector", value: css });
    return v.map((e) => elementId(e, css));
  }

  click(el) {
    return this.cmd("POST", `/element/${el}/click`, {});
  }

  type(el, text) {
    return this.cmd("POST", `/element/${el}/value`, { text });
  }

  exec(script, ...args) {
    return this.cmd("POST", "/execute/sync", { script, args });
  }

  async screenshot() {
    return Buffer.from(await this.cmd("GET", "/screenshot"), "base64");
  }

  end() {
    return call(this.base, "DELETE", `/session/${this.id}`);
  }

  /** Poll `script` (a function body returning a value) until it returns something truthy. */
  async waitFor(what, script, { timeout = 20000, interval = 150 } = {}, ...args) {
    const until = Date.now() + timeout;
    let last;
    while (Date.now() < until) {
      last = await this.exec(script, ...args);
      if (last) return last;
      await sleep(interval);
    }
    throw new Error(`timed out after ${timeout} ms waiting for ${what} (last value: ${JSON.stringify(last)})`);
  }
}

function elementId(ref, css) {
  const id = ref?.[ELEMENT] ?? ref?.ELEMENT;
  if (!id) throw new Error(`no element reference for ${css}: ${JSON.stringify(ref)}`);
  return id;
}

async function call(base, method, path, body) {
  const res = await fetch(base + path, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok || (json.value && json.value.error)) {
    throw new Error(`WebDriver ${method} ${path}: ${res.status} ${JSON.stringify(json.value ?? json)}`);
  }
  return json.value;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** An environment variable `scripts/test-e2e` sets; a suite started any other way stops here. */
export function need(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run this suite through scripts/test-e2e`);
  return v;
}
