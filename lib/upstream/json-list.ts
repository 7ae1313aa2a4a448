// A list answer (`{"events": [...], "next_cursor": "..."}`) read item by item as its bytes arrive: each element of the
// list is decoded, parsed and handed on on its own, so neither the body's text nor its whole parsed tree ever exists
// (docs/upstream-behaviours.md "Listing pages in bounded memory"). Only structure is scanned here (brackets and
// quotes, which are single bytes in UTF-8 and never occur inside a multi-byte character); every piece is parsed by
// JSON.parse, so anything malformed still fails as a SyntaxError.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const BOM = [0xef, 0xbb, 0xbf];

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDelimiter = (c: number) => c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY || isSpace(c);

/** The end of one JSON value, found across chunks: where the scan stopped is kept, so no byte is looked at twice. */
class ValueEnd {
  private kind: "string" | "container" | "scalar" | null = null;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Next byte to look at, relative to the value's start. */
  private offset = 0;

  reset(): void {
    this.kind = null;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    this.offset = 0;
  }

  /** The index just past the value that starts at `start`, or -1 when `bytes` ends first. */
  find(bytes: Uint8Array, start: number): number {
    if (this.kind === null) {
      const first = bytes[start];
      this.kind = first === QUOTE ? "string" : first === OPEN_OBJECT || first === OPEN_ARRAY ? "container" : "scalar";
    }
    for (let j = start + this.offset; j < bytes.length; j++) {
      const c = bytes[j];
      if (this.kind === "scalar") {
        if (isDelimiter(c)) return this.done(j, start);
      } else if (this.inString || (this.kind === "string" && j === start)) {
        if (j === start) this.inString = true;
        else if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          if (this.kind === "string") return this.done(j + 1, start);
        }
      } else if (c === QUOTE) this.inString = true;
      else if (c === OPEN_OBJECT || c === OPEN_ARRAY) this.depth++;
      else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --this.depth === 0) return this.done(j + 1, start);
    }
    this.offset = bytes.length - start;
    return -1;
  }

  private done(end: number, start: number): number {
    if (end === start) throw new SyntaxError("unexpected character in JSON");
    this.reset();
    return end;
  }
}

type ListRead<T> =
  /** The list's items as `onItem` made them (null: the member was absent or null), and every other member. */
  | { items: T[] | null; members: Record<string, unknown> }
  /** The list member was neither an array nor null: its value, for the caller's shape check to refuse. */
  | { notAList: unknown; members: Record<string, unknown> }
  /** The body was not a JSON object (an HTML page, an array, an error text): its text, to be read the ordinary way. */
  | { text: string };

type State = "start" | "first key" | "key" | "colon" | "value" | "first item" | "item" | "after item" | "after member" | "done";

/**
 * Reads a JSON object fed in chunks, handing each element of its `listKey` array to `onItem` (parsed) as soon as
 * the element's last byte has arrived. Holds only the bytes of the element being read.
 */
export class ListObjectReader<T> {
  private readonly decoder = new TextDecoder();
  private bytes = new Uint8Array(0);
  /** Where the token being read starts in `bytes`. */
  private at = 0;
  private state: State = "start";
  private readonly value = new ValueEnd();
  private key = "";
  private items: T[] | null = null;
  private notAList: { value: unknown } | null = null;
  // No prototype: a member named `__proto__` stays a member, as JSON.parse keeps it.
  private readonly members = Object.create(null) as Record<string, unknown>;
  private bomSeen = false;
  /** Not an object: every byte is kept and answered as text. */
  private whole: Uint8Array[] | null = null;

  constructor(
    private readonly listKey: string,
    private readonly onItem: (element: unknown) => T,
  ) {}

  push(chunk: Uint8Array): void {
    if (this.whole) {
      this.whole.push(chunk);
      return;
    }
    const rest = this.bytes.subarray(this.at);
    const joined = new Uint8Array(rest.length + chunk.length);
    joined.set(rest, 0);
    joined.set(chunk, rest.length);
    this.bytes = joined;
    this.at = 0;
    this.scan();
  }

  end(): ListRead<T> {
    if (this.whole) return { text: this.decoder.decode(concat(this.whole)) };
    if (this.state === "start" && this.bytes.length === 0) return { text: "" };
    if (this.state !== "done") throw new SyntaxError("unexpected end of JSON input");
    if (this.notAList) return { notAList: this.notAList.value, members: this.members };
    return { items: this.items, members: this.members };
  }

  private parse(end: number): unknown {
    return JSON.parse(this.decoder.decode(this.bytes.subarray(this.at, end)));
  }

  private expect(code: number, next: State): void {
    if (this.bytes[this.at] !== code) throw new SyntaxError(`expected '${String.fromCharCode(code)}' in JSON`);
    this.at++;
    this.state = next;
  }

  private scan(): void {
    const bytes = this.bytes;
    if (this.state === "start" && !this.bomSeen) {
      // A UTF-8 byte order mark is skipped (as a text decoder does), even when it arrives a byte at a time.
      const head = bytes.subarray(0, BOM.length);
      if (head.every((b, k) => b === BOM[k])) {
        if (head.length < BOM.length) return;
        this.at = BOM.length;
      }
      this.bomSeen = true;
    }
    for (;;) {
      while (this.at < bytes.length && isSpace(bytes[this.at])) this.at++;
      if (this.at >= bytes.length) return;
      const c = bytes[this.at];
      switch (this.state) {
        case "start":
          if (c !== OPEN_OBJECT) {
            this.whole = [bytes.slice()];
            return;
          }
          this.at++;
          this.state = "first key";
          break;
        case "first key":
          if (c === CLOSE_OBJECT) {
            this.at++;
            this.state = "done";
          } else this.state = "key";
          break;
        case "key": {
          if (c !== QUOTE) throw new SyntaxError("expected a member name in JSON");
          const end = this.value.find(bytes, this.at);
          if (end < 0) return;
          this.key = this.parse(end) as string;
          this.at = end;
          this.state = "colon";
          break;
        }
        case "colon":
          this.expect(COLON, "value");
          break;
        case "value": {
          if (this.key === this.listKey && c === OPEN_ARRAY) {
            // A repeated member replaces the earlier one, as JSON.parse would have it.
            this.items = [];
            this.notAList = null;
            this.at++;
            this.state = "first item";
            break;
          }
          const end = this.value.find(bytes, this.at);
          if (end < 0) return;
          const value = this.parse(end);
          if (this.key !== this.listKey) this.members[this.key] = value;
          else {
            this.items = null;
            this.notAList = value === null ? null : { value };
          }
          this.at = end;
          this.state = "after member";
          break;
        }
        case "first item":
          if (c === CLOSE_ARRAY) {
            this.at++;
            this.state = "after member";
          } else this.state = "item";
          break;
        case "item": {
          const end = this.value.find(bytes, this.at);
          if (end < 0) return;
          this.items!.push(this.onItem(this.parse(end)));
          this.at = end;
          this.state = "after item";
          break;
        }
        case "after item":
          if (c === CLOSE_ARRAY) {
            this.at++;
            this.state = "after member";
          } else this.expect(COMMA, "item");
          break;
        case "after member":
          if (c === CLOSE_OBJECT) {
            this.at++;
            this.state = "done";
          } else this.expect(COMMA, "key");
          break;
        case "done":
          throw new SyntaxError("unexpected text after JSON");
      }
    }
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Reads `body` through a ListObjectReader (tests and callers that hold the whole text). */
export function readListObject<T>(text: string, listKey: string, onItem: (element: unknown) => T): ListRead<T> {
  const reader = new ListObjectReader(listKey, onItem);
  reader.push(new TextEncoder().encode(text));
  return reader.end();
}
