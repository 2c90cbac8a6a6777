/**
 * The built-in components: MDX JSX element name → static hast. Each lives in its own file.
 *
 * Class names (all prefixed `d-`), for the shell's CSS (compiler/components/components.css holds the defaults):
 *   d-callout d-callout-{info|success|warning|danger|note|tip|check}, d-callout-icon, d-callout-body, d-callout-title
 *     (style var --d-callout-color when `color` is set; see callout.ts for the type mapping)
 *   d-accordion (details), d-accordion-summary, d-accordion-icon, d-accordion-heading, d-accordion-title,
 *     d-accordion-description, d-accordion-body; d-accordion-group
 *   d-expandable (details), d-expandable-summary, d-expandable-show / d-expandable-hide, d-expandable-body
 *   d-tabset [data-tabs] + d-tabset-tabs | d-code-group, d-tabset-list [role=tablist], d-tabset-tab [role=tab],
 *     d-tabset-panel [role=tabpanel, hidden]; d-tabset-single, d-tabset-single-title (a Tab outside Tabs)
 *     (not d-tabs/d-tab: those are the shell's navigation tabs)
 *   d-code [data-language, data-title], d-code-header, d-code-title, pre.shiki (span.line, span.line.highlighted),
 *     pre.d-code-plain, button.copy.d-code-copy [data-copy]
 *   d-steps (ol), d-step (li), d-step-marker, d-step-content, d-step-title, d-step-body
 *   d-type-table (wraps table), d-field-name, d-field-type, d-badge d-badge-required
 *   d-tree, d-tree-list (ul), d-tree-folder, d-tree-file, d-tree-label, d-tree-name, d-tree-other
 *   d-frame (figure), d-frame-hint, d-frame-body, d-frame-caption (figcaption)
 *   d-columns d-cols-{1..4}, d-column; d-card-group d-cols-{1..4}
 *   d-card [d-card-horizontal] [d-card-interactive] (a or div), d-card-img, d-card-icon, d-card-content,
 *     d-card-title, d-card-link, d-card-body, d-card-cta
 *   d-installer
 *   d-field d-param-field | d-response-field, d-field-header, d-field-name, d-field-location, d-field-type,
 *     d-field-default, d-field-body, d-badge-deprecated
 *   d-icon (span; --d-icon-size), d-icon-svg (svg), d-icon-img (img); d-badge d-badge-{color}
 *   d-tooltip, d-tooltip-tip [role=tooltip], d-tooltip-headline
 *   d-update (section), d-update-meta, d-update-label (h2), d-update-description, d-update-tags, d-update-body
 *   d-view [data-view], d-visibility, d-unknown [data-component] (an unknown component's children)
 *   d-panel (aside); d-tile [d-tile-link], d-tile-preview, d-tile-title, d-tile-description
 *   d-color d-color-{compact|table}, d-color-row, d-color-row-title, d-color-items, d-color-item,
 *     d-color-swatch, d-color-name, d-color-value
 *   d-mermaid, d-mermaid-source (pre: the diagram's source), d-mermaid-svg (the drawing, added in the browser)
 *   d-prompt, d-prompt-description, d-prompt-body, button.copy.d-prompt-copy [data-copy]
 *   d-preview-button (a); d-banner-inline
 *   d-anchor (the "#" link inside headings)
 *   d-api-endpoint [data-method], d-api-endpoint-line, d-method d-method-{get|post|…}, d-api-path, d-api-path-param,
 *     d-api-servers, d-api-servers-label, d-try-it [data-playground] (the API-page script fills it); d-api-schema
 *   d-api-example d-request-example | d-response-example, d-api-example-label (wraps a d-code-group)
 *
 * `Snippet` never reaches this table: remark-snippets inlines it (and imported snippet components) earlier.
 */
import { Accordion } from './accordion.js'
import { AccordionGroup } from './accordion-group.js'
import { ApiEndpoint, ApiSchema } from './api-endpoint.js'
import { Badge } from './badge.js'
import { Banner } from './banner.js'
import { Callout, Check, Danger, Info, Note, Tip, Warning } from './callout.js'
import { Card } from './card.js'
import { CardGroup } from './card-group.js'
import { CodeGroup } from './code-group.js'
import { Color, ColorItem, ColorRow } from './color.js'
import { Column, Columns } from './columns.js'
import { Expandable } from './expandable.js'
import { ParamField, ResponseField } from './field.js'
import { Frame } from './frame.js'
import { Icon } from './icon.js'
import { Installer } from './installer.js'
import { Link } from './link.js'
import { Panel } from './panel.js'
import { PreviewButton } from './preview-button.js'
import { Prompt } from './prompt.js'
import { RequestExample, ResponseExample } from './request-example.js'
import { Step, Steps } from './steps.js'
import { Tab, Tabs } from './tabs.js'
import { Tile } from './tile.js'
import { Tooltip } from './tooltip.js'
import { Tree, TreeFile, TreeFolder } from './tree.js'
import { TypeTable } from './type-table.js'
import type { Component } from './types.js'
import { Update } from './update.js'
import { View } from './view.js'
import { Visibility } from './visibility.js'

export { htmlElement } from './html-element.js'
export { resolveIcon } from './icons.js'
export type { Component, ComponentContext } from './types.js'

export const components: ReadonlyMap<string, Component> = new Map<string, Component>([
  ['Accordion', Accordion],
  ['AccordionGroup', AccordionGroup],
  ['ApiEndpoint', ApiEndpoint],
  ['ApiSchema', ApiSchema],
  ['Badge', Badge],
  ['Banner', Banner],
  ['Callout', Callout],
  ['Card', Card],
  ['CardGroup', CardGroup],
  ['Check', Check],
  ['CodeGroup', CodeGroup],
  ['Color', Color],
  ['Color.Item', ColorItem],
  ['Color.Row', ColorRow],
  ['Column', Column],
  ['Columns', Columns],
  ['Danger', Danger],
  ['Expandable', Expandable],
  ['File', TreeFile],
  // The root of the Folder / File spelling, as the component family that spelling comes from names it.
  ['Files', Tree],
  ['Folder', TreeFolder],
  ['Frame', Frame],
  ['Icon', Icon],
  ['Info', Info],
  ['Installer', Installer],
  ['Link', Link],
  ['Note', Note],
  ['Panel', Panel],
  ['ParamField', ParamField],
  ['RequestExample', RequestExample],
  ['ResponseExample', ResponseExample],
  ['PreviewButton', PreviewButton],
  ['Prompt', Prompt],
  ['ResponseField', ResponseField],
  ['Snippet', () => []],
  ['Step', Step],
  ['Steps', Steps],
  ['Tab', Tab],
  ['Tabs', Tabs],
  ['Tile', Tile],
  ['Tip', Tip],
  ['Tooltip', Tooltip],
  ['Tree', Tree],
  ['Tree.File', TreeFile],
  ['Tree.Folder', TreeFolder],
  ['TypeTable', TypeTable],
  ['Update', Update],
  ['View', View],
  ['Visibility', Visibility],
  ['Warning', Warning],
])
