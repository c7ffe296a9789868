// A relative import stays inside the workspace (apps/<name>, packages/<name> or tools/<name>) of the file that makes it.
// Crossing into another workspace must go through its package name, where the bare-specifier rules of
// eslint.config.mjs decide whether that dependency is allowed at all (no app imports another app, no deep
// import into a workspace's src or dist).
import path from 'node:path';

const WORKSPACE_ROOT = /^(?<root>.*?[\\/](?:apps|packages|tools)[\\/][^\\/]+)(?:[\\/]|$)/;

function workspaceOf(file) {
  return WORKSPACE_ROOT.exec(file)?.groups?.root;
}

export const workspaceBoundariesRule = {
  meta: {
    type: 'problem',
    docs: { description: 'relative imports do not leave their workspace' },
    messages: {
      escapes: "'{{source}}' leaves {{workspace}}: import another workspace by its package name (@gateway/<name>), never by path.",
    },
    schema: [],
  },
  create(context) {
    const file = context.physicalFilename;
    const home = workspaceOf(file);
    if (!home) return {};
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path.resolve(path.dirname(file), source);
      if (workspaceOf(target + path.sep) === home) return;
      context.report({ node: node.source, messageId: 'escapes', data: { source, workspace: path.relative(process.cwd(), home) || home } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
