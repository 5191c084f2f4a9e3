import torch

from model import GenerationConfig, TinyDecoder


@torch.compile
def next_token(model, tokens, gen: GenerationConfig):
    logits = model(tokens)
    if gen.repetition_penalty != 1.0:
        seen = torch.zeros_like(logits).scatter_(1, tokens, 1.0).bool()
        logits = torch.where(seen, logits / gen.repetition_penalty, logits)
    if not gen.do_sample:
        return logits.argmax(-1, keepdim=True)
    logits = logits / gen.temperature
    kth = torch.topk(logits, gen.top_k).values[:, -1:]
    logits = logits.masked_fill(logits < kth, float("-inf"))
    return torch.multinomial(logits.softmax(-1), 1)


def main():
    torch.manual_seed(0)
    model = TinyDecoder().eval()
    prompt = torch.randint(0, 80, (2, 5))
    requests = [GenerationConfig(), GenerationConfig(temperature=0.7), GenerationConfig(temperature=0.7, top_k=10),
                GenerationConfig(do_sample=False), GenerationConfig(repetition_penalty=1.2)]
    with torch.no_grad():
        for gen in requests:
            print(gen, next_token(model, prompt, gen).flatten().tolist())


if __name__ == "__main__":
    main()
