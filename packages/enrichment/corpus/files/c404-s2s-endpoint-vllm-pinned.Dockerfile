FROM vllm/vllm-openai:v0.18.1

COPY qwen3_nonthinking.jinja /app/qwen3_nonthinking.jinja
