// The websocket link to a table: hello, reconnection with backoff, keep-alive, server clock.
//
// One Link per page. It reconnects by itself (after a drop, a network change or a server
// restart) and tells the page its status: "connecting", "online", "offline" or "gone" (the
// table or the token is not valid: retrying would not help).

export const PROTOCOL = 1;

const PING_EVERY_MS = 8000;
const SILENT_LIMIT_MS = 20000;
const BACKOFF_MS = [300, 800, 1500, 3000, 5000];

let counter = 0;

/** A fresh client message id (echoed back by the server as `ref`). */
export function newId(prefix = "c") {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}.${counter}`;
}

export class Link {
  /**
   * @param {object} options
   * @param {string} options.tableId
   * @param {"player"|"host"|"spectator"} options.role
   * @param {string|null} options.token
   * @param {string} options.lang
   * @param {(msg: object) => void} options.onMessage every frame from the server, parsed
   * @param {(status: string, detail?: string) => void} options.onStatus
   */
  constructor({ tableId, role, token, lang, onMessage, onStatus }) {
    this.tableId = tableId;
    this.role = role;
    this.token = token;
    this.lang = lang;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.status = "connecting";
    this.attempt = 0;
    this.lastHeard = 0;
    this.clockOffset = 0; // server time minus local time, in ms
    this.boot = null;
    this.stopped = false;
    this.retryTimer = null;
    this.pingTimer = null;
    window.addEventListener("online", () => this.reconnectNow());
    window.addEventListener("offline", () => this.drop());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.check();
    });
  }

  /** The server's clock now, in epoch milliseconds. */
  now() {
    return Date.now() + this.clockOffset;
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.setStatus(this.attempt === 0 && this.status !== "offline" ? "connecting" : "offline");
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    let ws;
    try {
      ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(this.tableId)}`);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.lastHeard = Date.now();
      const hello = { type: "hello", protocol: PROTOCOL, role: this.role, lang: this.lang,
                      id: newId("h") };
      if (this.token) hello.token = this.token;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (event) => {
      this.lastHeard = Date.now();
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (msg.server_time) this.clockOffset = msg.server_time - Date.now();
      if (msg.type === "welcome") {
        this.attempt = 0;
        this.boot = msg.boot;
        this.setStatus("online");
      } else if (msg.type === "error" && (msg.code === "bad_token"
                 || msg.code === "unsupported_protocol")) {
        this.stop(msg.code);
      } else if (msg.type === "bye" && msg.code === "revoked") {
        this.stop("revoked"); // the page keeps the token: the host may undo a removal
      } else if (msg.type === "bye" && msg.code === "replaced") {
        this.stop("replaced"); // the seat is open on another device: reconnecting would fight it
      }
      this.onMessage(msg);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (event.code === 4404) {
        this.stop("no_table");
        return;
      }
      this.scheduleRetry();
    };
    ws.onerror = () => {};
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => this.check(), PING_EVERY_MS / 2);
  }

  scheduleRetry() {
    if (this.stopped) return;
    this.setStatus("offline");
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), base + Math.random() * 300);
  }

  /** Keep-alive: ping when quiet, drop a connection that stopped answering. */
  check() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const quiet = Date.now() - this.lastHeard;
    if (quiet > SILENT_LIMIT_MS) {
      this.drop();
    } else if (quiet > PING_EVERY_MS / 2) {
      this.sendRaw({ type: "ping", t: Date.now() });
    }
  }

  /** Close the socket and retry (it looked dead, or the network went away). */
  drop() {
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onclose = null;
      try { ws.close(); } catch { /* already closed */ }
    }
    this.scheduleRetry();
  }

  reconnectNow() {
    if (this.stopped) return;
    if (this.ws && this.ws.readyState === WebSocket.OPEN) return;
    this.attempt = 0;
    this.connect();
  }

  stop(code) {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    if (this.ws) {
      this.ws.onclose = null;
      try { this.ws.close(); } catch { /* already closed */ }
      this.ws = null;
    }
    this.setStatus("gone", code);
  }

  get isOpen() {
    return this.status === "online" && this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  sendRaw(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Send a message with an id (given or new); returns the id, or null when offline. */
  send(msg) {
    const body = { id: newId(), ...msg };
    return this.isOpen && this.sendRaw(body) ? body.id : null;
  }

  setLang(lang) {
    this.lang = lang;
    if (this.isOpen) this.send({ type: "set_lang", lang });
  }

  setStatus(status, detail) {
    if (status === this.status && status !== "gone") return;
    this.status = status;
    this.onStatus(status, detail);
  }
}

/** The part of the URL after `#`: secrets travel there (never sent to the server). Once read
 *  it leaves the address bar and this page's history entry (the page keeps it on the device),
 *  so it is not in the browser's history, a bookmark or a screenshot of the address bar. */
export function fragmentToken() {
  const raw = location.hash.replace(/^#/, "");
  if (!raw) return null;
  try {
    history.replaceState(history.state, "", location.pathname + location.search);
  } catch { /* a page that cannot rewrite its address keeps it */ }
  return decodeURIComponent(raw);
}

/** The table id from a path such as `/play/AbC123`. */
export function tableIdFromPath() {
  const parts = location.pathname.split("/").filter(Boolean);
  return parts.length >= 2 ? decodeURIComponent(parts[1]) : null;
}

/** Tokens kept on this device, per table (so a refresh or a bare link finds the seat). */
export const tokens = {
  get(kind, tableId) {
    try {
      return localStorage.getItem(`feltro.${kind}.${tableId}`);
    } catch {
      return null;
    }
  },
  set(kind, tableId, token) {
    try {
      localStorage.setItem(`feltro.${kind}.${tableId}`, token);
    } catch { /* private mode: the link still works */ }
  },
  remove(kind, tableId) {
    try {
      localStorage.removeItem(`feltro.${kind}.${tableId}`);
    } catch { /* nothing to remove */ }
  },
};
