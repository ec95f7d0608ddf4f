import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/** What differs between Stratus' webview pages; the rest (CSP, nonce, layout) is the same for all. */
export interface WebviewPage {
  webview: vscode.Webview;
  /** The folder holding the page's bundle (`dist/webview`). */
  root: vscode.Uri;
  /** The bundle's base name: `<name>.js` and `<name>.css` in `root`. */
  name: string;
  title: string;
  /** The `<main id="root">`'s attributes and content, already escaped by the caller. */
  mainAttributes?: string;
  mainContent?: string;
  lang?: string;
}

/**
 * The HTML of a webview page: a CSP that allows only the extension's own files and one nonce (no
 * remote origin, no inline script), the page's stylesheet and script.
 */
export function webviewPageHtml(page: WebviewPage): string {
  const { webview } = page;
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(page.root, `${page.name}.js`));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(page.root, `${page.name}.css`));
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    `img-src ${webview.cspSource} data:`,
    `font-src ${webview.cspSource}`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="${page.lang ?? 'en'}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" nonce="${nonce}" href="${style.toString()}">
<title>${page.title}</title>
</head>
<body>
<main id="root" aria-busy="true"${page.mainAttributes ? ` ${page.mainAttributes}` : ''}>${page.mainContent ?? ''}</main>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
