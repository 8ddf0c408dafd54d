/** Changes whenever a verdict the analyser gives for some bytes can change (callable lists, formats, rules). */
export const ANALYSER_VERSION = 'artifacts-1.0.0';
