// ListObjectReader (lib/upstream/json-list.ts): a list answer read item by item as its bytes arrive must say exactly
// what JSON.parse says of the same text — the same items in the same order, the same other members — however the
// bytes are cut into chunks, and refuse what JSON.parse refuses.
import { describe, expect, it } from "vitest";
import { ListObjectReader, readListObject } from "@/lib/upstream/json-list";

const read = (text: string) => readListObject(text, "events", (element) => element);

describe("readListObject", () => {
  it("hands each element to the item reader in order, parsed, and parses the other members", () => {
    const body = {
      $schema: "x",
      events: [
        { id: "1", title: 'a "quoted" title with [brackets] and {braces}', markets: [{ id: "m", outcomes: '["Yes", "No"]' }] },
        { id: "2", nested: { deep: [[1, 2], { x: null }] }, text: 'back\\slash \\" and \u00e9 \ud83d\ude00' },
        "a string item",
        42,
        null,
        true,
      ],
      next_cursor: "abc",
      count: 6,
    };
    const seen: unknown[] = [];
    const answer = readListObject(JSON.stringify(body, null, 2), "events", (element) => {
      seen.push(element);
      return seen.length;
    });
    expect(seen).toEqual(body.events);
    expect(answer).toEqual({ items: [1, 2, 3, 4, 5, 6], members: { $schema: "x", next_cursor: "abc", count: 6 } });
  });

  it("reads compact text, an empty list, a null list and an absent one", () => {
    expect(read('{"events":[{"id":1},{"id":2}],"next_cursor":null}')).toEqual({
      items: [{ id: 1 }, { id: 2 }],
      members: { next_cursor: null },
    });
    expect(read('{ "events" : [ ] }')).toEqual({ items: [], members: {} });
    expect(read('{"events":null,"next_cursor":"c"}')).toEqual({ items: null, members: { next_cursor: "c" } });
    expect(read("{}")).toEqual({ items: null, members: {} });
  });

  it("answers a list member that is not a list for the shape check to refuse, and a body that is not an object as text", () => {
    expect(read('{"events":{"id":1}}')).toEqual({ notAList: { id: 1 }, members: {} });
    expect(read('{"events":{"id":1},"events":[]}')).toEqual({ items: [], members: {} });
    expect(read('{"events":[{"id":1}],"events":7}')).toEqual({ notAList: 7, members: {} });
    expect(read('  [{"id":1}]')).toEqual({ text: '  [{"id":1}]' });
    expect(read("<!DOCTYPE html><html>Just a moment...</html>")).toEqual({ text: "<!DOCTYPE html><html>Just a moment...</html>" });
    expect(read("")).toEqual({ text: "" });
  });

  it("gives the same answer however the bytes are cut, multi-byte characters included", () => {
    const body = {
      events: [
        { id: "1", title: "Élection présidentielle – 2028 🗳️", tags: ["a", "b"], esc: 'q"\\"' },
        { id: "2", markets: [{ outcomes: '["Oui", "Non"]', n: -1.5e-3, t: true, f: false, z: null }] },
      ],
      next_cursor: "MTIz",
    };
    const bytes = new TextEncoder().encode(`\ufeff${JSON.stringify(body)}`);
    for (const size of [1, 2, 3, 7, 64, bytes.length]) {
      const items: unknown[] = [];
      const reader = new ListObjectReader("events", (element) => items.push(element));
      for (let i = 0; i < bytes.length; i += size) reader.push(bytes.subarray(i, i + size));
      expect(reader.end(), `chunks of ${size}`).toEqual({ items: [1, 2], members: { next_cursor: "MTIz" } });
      expect(items, `chunks of ${size}`).toEqual(body.events);
    }
  });

  it("keeps a member named __proto__ as a member, as JSON.parse does", () => {
    const answer = read('{"__proto__":{"polluted":true},"events":[]}') as { members: Record<string, unknown> };
    expect(Object.keys(answer.members)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses malformed and truncated text, as JSON.parse does", () => {
    const bad = [
      '{"events":[{"id":1},{"id":2}',
      '{"events":[{"id":1},{"id":2]}',
      '{"events":[{"id":1} {"id":2}]}',
      '{"events":[{"id":1},]}',
      '{"events":[{"id":"unterminated}]}',
      '{"events":[],"next_cursor":"c"',
      '{"events":[]} trailing',
      '{"events" [] }',
      "{events:[]}",
      '{"events":[nul]}',
      '{"events":[1,,2]}',
      '{"events":[1]}}',
      '{,"events":[]}',
    ];
    for (const text of bad) {
      expect(() => JSON.parse(text), text).toThrow(SyntaxError);
      expect(() => read(text), text).toThrow(SyntaxError);
    }
  });
});
