// Jupyter notebooks (docs/enrichment.md "Manifests recognised").
import type { Obj } from '../util';
import { isNotebook, parseNotebook } from '../parse/notebook';
import { defineFormat } from './define';
import { dataObject, fromData } from './shapes';

export const NOTEBOOK = defineFormat({
  id: 'notebook',
  title: 'Jupyter notebook',
  family: 'notebook',
  syntax: ['json'],
  summary: "the code cells' text (shell escapes, installs, `share=True`, downloads), capped",
  names: /\.ipynb$/i,
  recognise: (doc) => {
    const j = dataObject(doc);
    return j && isNotebook(j) ? 0.97 : 0;
  },
  parse: fromData<Obj>(parseNotebook),
  carries: ['launch_commands', 'dependencies', 'endpoints'],
  corpus: { name: 'notebook', example: 'c080' },
});
