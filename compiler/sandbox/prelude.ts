/**
 * The JavaScript that runs first in every sandbox context: a tiny module system over the site's own
 * code modules, a JSX factory whose elements are plain data, React's hooks reduced to their initial
 * state, and `__renderComponent`, which calls a component and returns its element tree as JSON.
 * Only strings cross the boundary: the host passes props as JSON and reads the tree back as JSON.
 *
 * Built-in component names (`Note`, `Card`…) are globals holding their own name, so a component that
 * writes `<Note>` produces an element the host renders with the built-in component.
 */
export function sandboxPrelude(builtins: readonly string[]): string {
  // Plain global strings (fast to declare); a name with members (`Tree.File`) is a String object.
  const heads = new Map<string, string[]>()
  for (const name of builtins) {
    const [head = name, member] = name.split('.')
    const members = heads.get(head) ?? []
    if (member) members.push(member)
    heads.set(head, members)
  }
  const globals = [...heads].map(([head, members]) =>
    members.length === 0
      ? `${head} = ${JSON.stringify(head)}`
      : `${head} = Object.assign(new String(${JSON.stringify(head)}), { ${members.map((member) => `${member}: ${JSON.stringify(`${head}.${member}`)}`).join(', ')} })`,
  )
  return `'use strict';
var ${globals.join(',\n  ')};
(() => {
  const SLOT = '$$slot';
  const Fragment = '#fragment';
  const definitions = Object.create(null);
  const loaded = Object.create(null);
  const warned = Object.create(null);
  const warnings = [];
  let current = 'Anonymous';
  let ids = 0;

  function jsx(type, props, ...children) {
    const all = Object.assign({}, props);
    delete all.key;
    delete all.ref;
    if (children.length === 1) all.children = children[0];
    else if (children.length > 1) all.children = children;
    return { $$element: true, type, props: all };
  }

  function hook(name) {
    if (warned[current]) return;
    warned[current] = true;
    warnings.push({ component: current, hook: name });
  }

  const React = {
    __esModule: true,
    createElement: jsx,
    Fragment,
    useState(initial) { hook('useState'); return [typeof initial === 'function' ? initial() : initial, () => {}]; },
    useReducer(reducer, initial, init) { hook('useReducer'); return [init ? init(initial) : initial, () => {}]; },
    useEffect() { hook('useEffect'); },
    useLayoutEffect() { hook('useLayoutEffect'); },
    useInsertionEffect() { hook('useInsertionEffect'); },
    useMemo(compute) { hook('useMemo'); return compute(); },
    useCallback(callback) { hook('useCallback'); return callback; },
    useRef(initial) { hook('useRef'); return { current: initial }; },
    useId() { hook('useId'); ids += 1; return 'r' + ids; },
    useContext(context) { hook('useContext'); return context ? context.value : undefined; },
    createContext(value) { const context = { value }; context.Provider = (props) => props.children; return context; },
    useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot) { hook('useSyncExternalStore'); return (getServerSnapshot ?? getSnapshot)(); },
    useTransition() { hook('useTransition'); return [false, (run) => run()]; },
    useDeferredValue: (value) => value,
    useImperativeHandle() {},
    useDebugValue() {},
    memo: (component) => component,
    forwardRef: (render) => (props) => render(props, null),
    isValidElement: (value) => typeof value === 'object' && value !== null && value.$$element === true,
    cloneElement(element, props, ...children) {
      // Content from the page (a slot) is rendered by the host as written; it cannot be changed here.
      if (element[SLOT] !== undefined) return element;
      const merged = Object.assign({}, element.props, props);
      if (children.length === 1) merged.children = children[0];
      else if (children.length > 1) merged.children = children;
      return jsx(element.type, merged);
    },
    Children: {
      toArray: (children) => flatten(children, []),
      map: (children, fn, context) => flatten(children, []).map((child, index) => fn.call(context, child, index)),
      forEach: (children, fn, context) => { flatten(children, []).forEach((child, index) => fn.call(context, child, index)); },
      count: (children) => flatten(children, []).length,
      only(children) {
        if (!React.isValidElement(children)) throw new Error('React.Children.only expected to receive a single React element child.');
        return children;
      },
    },
  };
  // React's own rule: null, undefined and booleans are no children; arrays count as their items.
  function flatten(children, out) {
    if (children === null || children === undefined || typeof children === 'boolean') return out;
    if (Array.isArray(children)) for (const child of children) flatten(child, out);
    else out.push(children);
    return out;
  }
  React.default = React;

  function load(file) {
    if (loaded[file]) return loaded[file].exports;
    const definition = definitions[file];
    if (!definition) throw new Error('Cannot import "' + file + '": it is not a code module of this site');
    const module = { exports: {} };
    loaded[file] = module;
    const require = (specifier) => {
      if (specifier === 'react' || specifier === 'react/jsx-runtime') return React;
      const path = definition.imports[specifier];
      if (path === undefined)
        throw new Error('Cannot import "' + specifier + '": only files inside the site and "react" can be imported');
      return load(path);
    };
    definition.factory.call(undefined, module.exports, require, module);
    return module.exports;
  }

  function render(node, out) {
    if (node === null || node === undefined || typeof node === 'boolean') return out;
    if (typeof node === 'string' || typeof node === 'number' || typeof node === 'bigint') {
      out.push(String(node));
      return out;
    }
    if (Array.isArray(node)) {
      for (const item of node) render(item, out);
      return out;
    }
    if (typeof node !== 'object') throw new TypeError('A ' + typeof node + ' is not valid as a JSX child');
    if (node[SLOT] !== undefined) {
      out.push({ slot: node[SLOT] });
      return out;
    }
    if (node.$$element === true) {
      const type = node.type instanceof String ? node.type.valueOf() : node.type;
      if (typeof type === 'function') {
        const previous = current;
        current = type.displayName || type.name || 'Anonymous';
        try {
          return render(type(node.props), out);
        } finally {
          current = previous;
        }
      }
      if (type === Fragment) return render(node.props.children, out);
      if (typeof type === 'string') {
        out.push({ name: type, props: attributes(node.props), children: render(node.props.children, []) });
        return out;
      }
      throw new TypeError('Element type is invalid: expected a component or a tag name, got ' + typeof type);
    }
    if (typeof node.then === 'function')
      throw new TypeError('A component returned a Promise; components render once, synchronously, at build time');
    throw new TypeError('Objects are not valid as a JSX child (found one with keys ' + Object.keys(node).join(', ') + ')');
  }

  function attributes(props) {
    const result = {};
    for (const key of Object.keys(props)) {
      if (key === 'children') continue;
      const value = plain(props[key], 0);
      if (value !== undefined) result[key] = value;
    }
    return result;
  }

  function plain(value, depth) {
    if (depth > 16) return undefined;
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
    if (typeof value !== 'object') return undefined;
    if (value.$$element === true) return { $$tree: render(value, []) };
    if (Array.isArray(value)) return value.map((item) => plain(item, depth + 1) ?? null);
    const result = {};
    for (const key of Object.keys(value)) {
      const item = plain(value[key], depth + 1);
      if (item !== undefined) result[key] = item;
    }
    return result;
  }

  // Shared prototypes are frozen, so one component cannot change how another behaves: a write to
  // them is a TypeError at the author's line (module code is strict).
  for (const shared of [Object, Array, Function, String]) {
    Object.freeze(shared);
    Object.freeze(shared.prototype);
  }
  Object.freeze(JSON);
  Object.freeze(React);
  globalThis.React = React;
  // The hosted platform gives components React's hooks as globals: \`useState\` works without an import.
  for (const name of Object.keys(React)) if (/^use[A-Z]/.test(name)) globalThis[name] = React[name];
  globalThis.__jsx = jsx;
  globalThis.__Fragment = Fragment;
  globalThis.__define = (file, imports, factory) => { definitions[file] = { imports, factory }; };
  // Errors thrown by author code come back as data; only the limits (time, memory) stop a call outright.
  globalThis.__safe = (run) => {
    try {
      return JSON.stringify({ ok: true, value: run() });
    } catch (error) {
      let name = 'Error';
      let message = 'threw a value that cannot be read';
      let stack = '';
      try {
        const object = typeof error === 'object' && error !== null;
        name = object && typeof error.name === 'string' ? error.name : 'Error';
        message = object && error.message !== undefined ? String(error.message) : 'threw ' + String(error);
        stack = object && typeof error.stack === 'string' ? error.stack : '';
      } catch {}
      return JSON.stringify({ ok: false, error: { name, message, stack } });
    }
  };
  // \`childrenJson\` describes the element's children in the page ({ type, props } each); as in React,
  // one child is the child itself and several are a list, each a slot the host fills with the content.
  globalThis.__renderComponent = (file, name, propsJson, childrenJson) => {
    const component = load(file)[name];
    if (typeof component !== 'function')
      throw new TypeError(name + ' from ' + file + ' is not a component (a function returning JSX)');
    const props = JSON.parse(propsJson);
    for (const key of Object.keys(props)) {
      const value = props[key];
      if (value !== null && typeof value === 'object' && typeof value.$$propSlot === 'number')
        props[key] = { [SLOT]: 'p' + value.$$propSlot, $$element: true, type: Fragment, props: {} };
    }
    const slots = JSON.parse(childrenJson).map((child, index) => ({
      [SLOT]: index,
      $$element: true,
      type: child.type,
      props: Object.assign({}, child.props),
      key: String(index),
    }));
    if (slots.length === 1) props.children = slots[0];
    else if (slots.length > 1) props.children = slots;
    warnings.length = 0;
    const tree = render(jsx(component, props), []);
    return { tree, warnings: warnings.slice() };
  };
})();
`
}
