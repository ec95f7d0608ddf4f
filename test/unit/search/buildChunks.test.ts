// The chunker's fast paths in the bulk build: a line runs the declaration regexes only when its
// first word or last character allows a match; these lines must still start a chunk.
import * as assert from 'node:assert/strict';
import { chunkRanges } from '../../../src/core/search';

const filler = Array.from({ length: 9 }, (_, i) => `  total = total + ${i}; // step ${i}`);

const startsChunk = (line: string, path = 'a.ts'): boolean => {
  const text = [...filler, line, ...filler].join('\n');
  return chunkRanges(path, text).some((c) => c.startLine === filler.length + 1);
};

describe('search: chunk boundaries through the regex prefilter', () => {
  const boundaries = [
    'export function refreshToken(session) {',
    'export default class Basket {',
    'export const handler = async (event) => {',
    'const parse = (text: string): Node => {',
    'let open = function () {',
    'var legacy = function named() {',
    'const double = x => x * 2;',
    'export async function* pages() {',
    '  async fetchOrder(id: string): Promise<Order> {',
    '  get total(): number {',
    '  private static build(a, b) {   ',
    '  #secret() {',
    '  constructor(private readonly store: Store) {',
    'class Parser:',
    'def parse_order(text):',
    'pub(crate) fn parse(input: &str) -> Order {',
    'fn main() {',
    'impl Display for Order {',
    'struct Order {',
    'type Handler = (e: Event) => void;',
    'interface Options {',
    'enum Kind {',
    'declare module Shapes {',
    'namespace Shapes {',
    'package main',
    '\tfunc Total(o *Order) int {',
  ];
  for (const line of boundaries) {
    it(`a declaration starts a chunk: ${JSON.stringify(line)}`, () => assert.ok(startsChunk(line)));
  }

  const statements = ['  return total;', '  const total = compute(order);', '  if (ready) {', '  for (const x of xs) {', '  someCall(a, b);', '  let count = 0;'];
  for (const line of statements) {
    it(`a statement does not: ${JSON.stringify(line)}`, () => assert.ok(!startsChunk(line)));
  }
});
