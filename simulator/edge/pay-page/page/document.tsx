// The HTML shell: one stylesheet and one module script, both from this origin (the CSP allows no
// inline code), a viewport for phones, and a skip-free single column that reads top to bottom.
import type { Child } from 'hono/jsx';

export function Document(props: { title: string; withScript: boolean; children: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <link rel="icon" href="data:," />
        <title>{props.title}</title>
        <link rel="stylesheet" href="/p/assets/pay-page.css" />
        {props.withScript ? <script type="module" src="/p/assets/pay-page.js"></script> : null}
      </head>
      <body>{props.children}</body>
    </html>
  );
}
