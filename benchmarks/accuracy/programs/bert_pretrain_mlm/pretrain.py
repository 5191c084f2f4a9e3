"""Masked-language-model pretraining of a tiny BERT on synthetic sentence pairs."""

from __future__ import annotations

import time
from typing import Tuple

import torch
from torch.optim.lr_scheduler import LambdaLR

from config import BertConfig
from modeling import BertForMaskedLM

SEED = 1234
BATCH_SIZE = 4
SEQ_LEN = 32
GRAD_ACCUM_STEPS = 2
NUM_UPDATES = 6
WARMUP_STEPS = 2
LEARNING_RATE = 5e-4
WEIGHT_DECAY = 0.01
MAX_GRAD_NORM = 1.0
MLM_PROBABILITY = 0.15


def make_sentence_pairs(config: BertConfig, batch_size: int, seq_len: int, gen: torch.Generator):
    """[CLS] A [SEP] B [SEP] [PAD]... with random segment lengths."""
    input_ids = torch.full((batch_size, seq_len), config.pad_token_id, dtype=torch.long)
    token_type_ids = torch.zeros(batch_size, seq_len, dtype=torch.long)
    attention_mask = torch.zeros(batch_size, seq_len, dtype=torch.long)
    for i in range(batch_size):
        total = int(torch.randint(seq_len // 2, seq_len + 1, (1,), generator=gen))
        len_a = (total - 3) // 2
        len_b = total - 3 - len_a
        words = torch.randint(config.num_special_tokens, config.vocab_size, (len_a + len_b,), generator=gen)
        row = [config.cls_token_id] + words[:len_a].tolist() + [config.sep_token_id]
        row += words[len_a:].tolist() + [config.sep_token_id]
        input_ids[i, : len(row)] = torch.tensor(row)
        token_type_ids[i, len_a + 2 : len(row)] = 1
        attention_mask[i, : len(row)] = 1
    return input_ids, token_type_ids, attention_mask


def mask_tokens(
    inputs: torch.Tensor,
    config: BertConfig,
    gen: torch.Generator,
    mlm_probability: float = 0.15,
    mask_replace_prob: float = 0.8,
    random_replace_prob: float = 0.1,
) -> Tuple[torch.Tensor, torch.Tensor]:
    """Prepare masked inputs/labels: 80% [MASK], 10% random word, 10% unchanged."""
    labels = inputs.clone()
    inputs = inputs.clone()
    probability_matrix = torch.full(labels.shape, mlm_probability)
    special_tokens_mask = inputs < config.num_special_tokens
    probability_matrix.masked_fill_(special_tokens_mask, value=0.0)
    masked_indices = torch.bernoulli(probability_matrix, generator=gen).bool()
    labels[~masked_indices] = -100  # only compute loss on masked tokens

    indices_replaced = torch.bernoulli(torch.full(labels.shape, mask_replace_prob), generator=gen).bool() & masked_indices
    inputs[indices_replaced] = config.mask_token_id

    # of the remaining 20%, half random (10% overall) and half untouched
    random_prob = random_replace_prob / (1.0 - mask_replace_prob)
    indices_random = (
        torch.bernoulli(torch.full(labels.shape, random_prob), generator=gen).bool()
        & masked_indices
        & ~indices_replaced
    )
    random_words = torch.randint(config.num_special_tokens, config.vocab_size, labels.shape, generator=gen)
    inputs[indices_random] = random_words[indices_random]
    return inputs, labels


def linear_warmup_schedule(optimizer: torch.optim.Optimizer, warmup_steps: int, total_steps: int) -> LambdaLR:
    def lr_lambda(current_step: int) -> float:
        if current_step < warmup_steps:
            return float(current_step + 1) / float(max(1, warmup_steps))
        return max(0.0, float(total_steps - current_step) / float(max(1, total_steps - warmup_steps)))

    return LambdaLR(optimizer, lr_lambda)


def build_optimizer(model: torch.nn.Module) -> torch.optim.AdamW:
    decay, no_decay = [], []
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        if name.endswith("bias") or "LayerNorm" in name:
            no_decay.append(param)
        else:
            decay.append(param)
    groups = [
        {"params": decay, "weight_decay": WEIGHT_DECAY},
        {"params": no_decay, "weight_decay": 0.0},
    ]
    return torch.optim.AdamW(groups, lr=LEARNING_RATE, betas=(0.9, 0.999), eps=1e-6)


def main() -> None:
    torch.manual_seed(SEED)
    gen = torch.Generator().manual_seed(SEED)

    config = BertConfig.from_dict(BertConfig().to_dict(), hidden_dropout_prob=0.1)
    model = BertForMaskedLM(config)
    n_params = sum(p.numel() for p in model.parameters())
    print(f"model: {config.num_hidden_layers} layers, {n_params / 1e3:.1f}K params")

    optimizer = build_optimizer(model)
    scheduler = linear_warmup_schedule(optimizer, WARMUP_STEPS, NUM_UPDATES)
    compiled_model = torch.compile(model)

    model.train()
    t0 = time.time()
    for update in range(NUM_UPDATES):
        optimizer.zero_grad(set_to_none=True)
        running_loss = 0.0
        for micro_step in range(GRAD_ACCUM_STEPS):
            input_ids, token_type_ids, attention_mask = make_sentence_pairs(config, BATCH_SIZE, SEQ_LEN, gen)
            masked_inputs, labels = mask_tokens(input_ids, config, gen, mlm_probability=MLM_PROBABILITY)
            outputs = compiled_model(
                masked_inputs,
                attention_mask=attention_mask,
                token_type_ids=token_type_ids,
                labels=labels,
            )
            loss = outputs[0] / GRAD_ACCUM_STEPS
            loss.backward()
            running_loss += loss.item()
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), MAX_GRAD_NORM)
        optimizer.step()
        scheduler.step()
        print(
            f"update {update}: loss {running_loss:.4f} grad_norm {grad_norm.item():.3f} "
            f"lr {scheduler.get_last_lr()[0]:.2e}"
        )
    print(f"training took {time.time() - t0:.1f}s")

    # inspect attention maps of the trained model on one batch
    model.eval()
    with torch.no_grad():
        input_ids, token_type_ids, attention_mask = make_sentence_pairs(config, 2, SEQ_LEN, gen)
        masked_inputs, labels = mask_tokens(input_ids, config, gen)
        loss, logits, attentions = compiled_model(
            masked_inputs,
            attention_mask=attention_mask,
            token_type_ids=token_type_ids,
            labels=labels,
            output_attentions=True,
        )
        predictions = logits.argmax(dim=-1)
        is_masked = labels != -100
        accuracy = (predictions[is_masked] == labels[is_masked]).float().mean().item() if is_masked.any() else 0.0
    print(f"eval loss {loss.item():.4f} masked acc {accuracy:.3f}")
    for i, layer_attn in enumerate(attentions):
        entropy = -(layer_attn * (layer_attn + 1e-9).log()).sum(-1).mean()
        print(f"layer {i}: attention shape {tuple(layer_attn.shape)} mean entropy {entropy.item():.3f}")


if __name__ == "__main__":
    main()
