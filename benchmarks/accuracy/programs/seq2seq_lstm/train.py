"""Train the attention seq2seq on a toy string-reversal task."""

import random

import torch
import torch.nn as nn

from model import BahdanauAttention, Decoder, Encoder, Seq2Seq

CHARS = "abcdefghijkl"
EMB_DIM = 16
ENC_HID = 32
DEC_HID = 32
DROPOUT = 0.1
BATCH_SIZE = 8
N_EPOCHS = 4
BATCHES_PER_EPOCH = 3
TF_START = 1.0
TF_DECAY = 0.7
CLIP = 1.0


class Vocab:
    PAD, SOS, EOS, UNK = "<pad>", "<sos>", "<eos>", "<unk>"

    def __init__(self, chars: str):
        self.itos = [self.PAD, self.SOS, self.EOS, self.UNK] + sorted(set(chars))
        self.stoi = {s: i for i, s in enumerate(self.itos)}
        self.pad_idx = self.stoi[self.PAD]
        self.sos_idx = self.stoi[self.SOS]
        self.eos_idx = self.stoi[self.EOS]
        self.unk_idx = self.stoi[self.UNK]

    def __len__(self):
        return len(self.itos)

    def encode(self, text: str, add_sos: bool = False) -> list[int]:
        ids = [self.stoi.get(c, self.unk_idx) for c in text] + [self.eos_idx]
        return [self.sos_idx] + ids if add_sos else ids

    def decode(self, ids: list[int]) -> str:
        out = []
        for i in ids:
            if i == self.eos_idx:
                break
            if i not in (self.pad_idx, self.sos_idx):
                out.append(self.itos[i])
        return "".join(out)


def pad(seqs: list[list[int]], pad_idx: int) -> torch.Tensor:
    max_len = max(len(s) for s in seqs)
    return torch.tensor([s + [pad_idx] * (max_len - len(s)) for s in seqs], dtype=torch.long)


def make_batch(vocab: Vocab, batch_size: int, min_len: int = 3, max_len: int = 7):
    srcs = ["".join(random.choices(CHARS, k=random.randint(min_len, max_len))) for _ in range(batch_size)]
    src_ids = [vocab.encode(s) for s in srcs]
    trg_ids = [vocab.encode(s[::-1], add_sos=True) for s in srcs]
    src_lens = torch.tensor([len(s) for s in src_ids])
    return pad(src_ids, vocab.pad_idx), src_lens, pad(trg_ids, vocab.pad_idx), srcs


def build_model(vocab: Vocab) -> Seq2Seq:
    attn = BahdanauAttention(ENC_HID, DEC_HID)
    enc = Encoder(len(vocab), EMB_DIM, ENC_HID, DEC_HID, DROPOUT, vocab.pad_idx)
    dec = Decoder(len(vocab), EMB_DIM, ENC_HID, DEC_HID, DROPOUT, attn)
    return Seq2Seq(enc, dec, vocab.pad_idx, vocab.sos_idx, vocab.eos_idx)


def init_weights(m: nn.Module):
    for name, param in m.named_parameters():
        if "weight" in name:
            nn.init.normal_(param.data, mean=0, std=0.1)
        else:
            nn.init.constant_(param.data, 0)


def main():
    torch.manual_seed(0)
    random.seed(0)
    vocab = Vocab(CHARS)
    model = build_model(vocab)
    model.apply(init_weights)
    print(f"vocab size {len(vocab)}, params {sum(p.numel() for p in model.parameters())}")

    # the encoder runs once per batch; the per-token decoder step is the hot loop
    model.decoder.step = torch.compile(model.decoder.step)

    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    criterion = nn.CrossEntropyLoss(ignore_index=vocab.pad_idx)

    teacher_forcing_ratio = TF_START
    for epoch in range(N_EPOCHS):
        model.train()
        epoch_loss = 0.0
        for _ in range(BATCHES_PER_EPOCH):
            src, src_lens, trg, _ = make_batch(vocab, BATCH_SIZE)
            optimizer.zero_grad()
            output = model(src, src_lens, trg, teacher_forcing_ratio)
            output_dim = output.shape[-1]
            loss = criterion(output[:, 1:].reshape(-1, output_dim), trg[:, 1:].reshape(-1))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
            optimizer.step()
            epoch_loss += loss.item()
        print(f"epoch {epoch} tf_ratio {teacher_forcing_ratio:.2f} loss {epoch_loss / BATCHES_PER_EPOCH:.3f}")
        teacher_forcing_ratio *= TF_DECAY

    model.eval()
    src, src_lens, _, srcs = make_batch(vocab, 4)
    tokens, attn = model.greedy_decode(src, src_lens, max_len=10)
    print("attention map shape:", tuple(attn.shape))
    for s, toks in zip(srcs, tokens.tolist()):
        print(f"{s:>8} -> {vocab.decode(toks)!r} (target {s[::-1]!r})")


if __name__ == "__main__":
    main()
