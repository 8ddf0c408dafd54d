declare module 'spdx-license-ids' {
  const ids: string[];
  export = ids;
}
declare module 'spdx-license-ids/deprecated' {
  const ids: string[];
  export = ids;
}
declare module 'spdx-expression-parse' {
  type Node =
    { license: string; plus?: boolean; exception?: string } | { conjunction: 'and' | 'or'; left: Node; right: Node };
  function parse(expression: string): Node;
  export = parse;
}
