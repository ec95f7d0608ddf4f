import './documents.css';
import { h } from '../shared/dom';
import { renderMarkdown } from './dom';

/** The document view: page thumbnails on one side, the selected page's Markdown on the other. */

type PageAction = 'text' | 'ocr' | 'empty';
type PageStatus = 'queued' | 'reading' | 'done' | 'failed' | 'cancelled';
interface PageView {
  number: number;
  action: PageAction;
  status: PageStatus;
  markdown?: string;
  reason?: string;
  model?: string;
  thumbnail?: string;
}
type ToWebview =
  | { type: 'document'; fileName: string; pageCount: number; pages: PageView[]; busy: boolean }
  | { type: 'page'; page: PageView }
  | { type: 'busy'; busy: boolean };

const vscode = acquireVsCodeApi<unknown, { selected?: number }>();
const root = document.getElementById('root') as HTMLElement;
const labels = JSON.parse(decodeURIComponent(root.dataset.labels ?? '%7B%7D')) as Record<string, string>;
const t = (key: string, ...args: Array<string | number>): string => (labels[key] ?? key).replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)] ?? ''));

let fileName = '';
let pageCount = 0;
let busy = false;
const pages = new Map<number, PageView>();
let selected = vscode.getState()?.selected;

const header = h('header', { class: 'bar' });
const list = h('nav', { class: 'pages', 'aria-label': t('pages') });
const detail = h('section', { class: 'detail', 'aria-live': 'polite' });
root.replaceChildren(header, h('div', { class: 'split' }, list, detail));

function statusLabel(page: PageView): string {
  return t(page.status);
}

function sourceLabel(page: PageView): string {
  return page.action === 'ocr' ? (page.model ? `${t('ocr')} · ${page.model}` : t('ocr')) : t(page.action);
}

function renderHeader(): void {
  const done = [...pages.values()].filter((p) => p.status === 'done').length;
  const actions = h('div', { class: 'actions' },
    busy ? h('button', { type: 'button', class: 'secondary', id: 'cancel' }, t('cancel')) : null,
    h('button', { type: 'button', id: 'open-markdown', disabled: done === 0 }, t('openMarkdown')),
    h('button', { type: 'button', class: 'secondary', id: 'save', disabled: done === 0 }, t('save')),
  );
  header.replaceChildren(h('div', { class: 'title' }, h('strong', {}, fileName), h('span', { class: 'muted' }, ` · ${t('progress', done, pages.size)}${pages.size < pageCount ? ` · ${t('ofDocument', pageCount)}` : ''}`)), actions);
  header.querySelector('#cancel')?.addEventListener('click', () => vscode.postMessage({ type: 'cancel' }));
  header.querySelector('#open-markdown')?.addEventListener('click', () => vscode.postMessage({ type: 'openMarkdown' }));
  header.querySelector('#save')?.addEventListener('click', () => vscode.postMessage({ type: 'save' }));
}

function card(page: PageView): HTMLElement {
  const picture = page.thumbnail
    ? h('img', { src: page.thumbnail, alt: '' })
    : h('div', { class: 'sheet' }, ...(page.markdown ?? '').split('\n').filter((l) => l.trim()).slice(0, 6).map((l) => h('span', {}, l.slice(0, 40))));
  const button = h('button', { type: 'button', class: `page ${page.status}${page.number === selected ? ' selected' : ''}`, 'data-page': page.number, 'aria-current': page.number === selected ? 'true' : undefined },
    h('div', { class: 'thumb' }, picture),
    h('div', { class: 'caption' }, h('span', {}, t('page', page.number)), h('span', { class: `badge ${page.status}` }, statusLabel(page))),
  );
  button.addEventListener('click', () => select(page.number));
  return button;
}

function renderList(): void {
  list.replaceChildren(...[...pages.values()].sort((a, b) => a.number - b.number).map(card));
}

function renderDetail(): void {
  const page = selected !== undefined ? pages.get(selected) : undefined;
  if (!page) {
    detail.replaceChildren();
    return;
  }
  const head = h('div', { class: 'detail-head' }, h('h2', {}, t('page', page.number)), h('span', { class: 'muted' }, `${sourceLabel(page)} · ${statusLabel(page)}`));
  let body: HTMLElement;
  if (page.status === 'done') body = page.markdown?.trim() ? renderMarkdown(page.markdown) : h('p', { class: 'muted' }, t('blank'));
  else if (page.status === 'failed' || page.status === 'cancelled') {
    body = h('div', { class: 'failure' }, page.reason ? h('p', {}, page.reason) : h('p', { class: 'muted' }, t('nothingYet')), h('button', { type: 'button', id: 'retry', disabled: busy }, t('retry')));
    body.querySelector('#retry')?.addEventListener('click', () => vscode.postMessage({ type: 'retry', page: page.number }));
  } else body = h('p', { class: 'muted' }, page.status === 'reading' ? t('reading') : t('nothingYet'));
  detail.replaceChildren(head, body);
}

function select(number: number): void {
  selected = number;
  vscode.setState({ selected });
  renderList();
  renderDetail();
  (list.querySelector(`[data-page="${number}"]`) as HTMLElement | null)?.focus();
}

list.addEventListener('keydown', (event) => {
  const order = [...pages.keys()].sort((a, b) => a - b);
  const at = order.indexOf(selected ?? order[0] ?? 1);
  const next = event.key === 'ArrowDown' ? order[at + 1] : event.key === 'ArrowUp' ? order[at - 1] : undefined;
  if (next !== undefined) {
    event.preventDefault();
    select(next);
  }
});

window.addEventListener('message', (event: MessageEvent<ToWebview>) => {
  const message = event.data;
  if (message.type === 'document') {
    fileName = message.fileName;
    pageCount = message.pageCount;
    busy = message.busy;
    pages.clear();
    for (const page of message.pages) pages.set(page.number, page);
    if (selected === undefined || !pages.has(selected)) selected = message.pages[0]?.number;
    root.setAttribute('aria-busy', String(busy));
  } else if (message.type === 'page') {
    pages.set(message.page.number, message.page);
    if (selected === undefined) selected = message.page.number;
  } else if (message.type === 'busy') {
    busy = message.busy;
  }
  renderHeader();
  renderList();
  renderDetail();
});

vscode.postMessage({ type: 'ready' });
