// The Python distributions whose installed METADATA makes an AI asset (docs/scanner.md "Installed Python packages"):
// model runtimes, agent and LLM frameworks, MCP SDKs and inference servers. Matched on the normalised name (PEP 503).
export const AI_PYTHON_PACKAGES: ReadonlySet<string> = new Set([
  'torch',
  'tensorflow',
  'keras',
  'jax',
  'flax',
  'transformers',
  'diffusers',
  'accelerate',
  'peft',
  'trl',
  'sentence-transformers',
  'safetensors',
  'tokenizers',
  'huggingface-hub',
  'datasets',
  'onnx',
  'onnxruntime',
  'onnxruntime-gpu',
  'vllm',
  'llama-cpp-python',
  'ctransformers',
  'gguf',
  'bitsandbytes',
  'xformers',
  'openai',
  'anthropic',
  'google-generativeai',
  'google-genai',
  'mistralai',
  'cohere',
  'groq',
  'ollama',
  'litellm',
  'langchain',
  'langchain-core',
  'langchain-community',
  'langchain-openai',
  'langgraph',
  'llama-index',
  'llama-index-core',
  'haystack-ai',
  'semantic-kernel',
  'autogen',
  'pyautogen',
  'autogen-agentchat',
  'crewai',
  'smolagents',
  'dspy',
  'dspy-ai',
  'instructor',
  'guidance',
  'mcp',
  'fastmcp',
  'openai-agents',
  'pydantic-ai',
  'chromadb',
  'faiss-cpu',
  'faiss-gpu',
  'pinecone',
  'pinecone-client',
  'weaviate-client',
  'qdrant-client',
  'gradio',
  'streamlit',
  'mlflow',
  'ray',
  'deepspeed',
  'scikit-learn',
  'xgboost',
  'lightgbm',
  'joblib',
  'tiktoken',
  'sentencepiece',
  'timm',
  'ultralytics',
  'spacy',
  'nltk',
  'modelscope',
  'text-generation',
  'tgi',
]);

/** PEP 503 normalisation. */
export function normalisePythonName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[-_.]+/g, '-');
}

/** `Name:` and `Version:` of a core-metadata file (RFC 822 headers up to the first blank line). */
export function readCoreMetadata(text: string): { name: string; version: string | null } | null {
  let name: string | null = null;
  let version: string | null = null;
  for (const line of text.split('\n', 200)) {
    if (line.trim() === '') break;
    // a header is `Key: value`; split at the first colon rather than match, so the line costs one pass
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon);
    const value = line.slice(colon + 1, colon + 1 + 400).trim();
    if (!value) continue;
    if (key === 'Name') name = value.slice(0, 200);
    else if (key === 'Version') version = value.slice(0, 200);
  }
  return name ? { name, version } : null;
}
