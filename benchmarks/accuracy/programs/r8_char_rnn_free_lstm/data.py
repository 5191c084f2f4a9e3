"""Synthetic character data: a tiny vocabulary and a noisy repeating grammar."""
import torch

ALPHABET = "abcdefghijklmnopqrstuvwxyz .,!\n"
PAD = "_"


class CharVocab:
    def __init__(self, alphabet=ALPHABET):
        self.itos = [PAD] + list(alphabet)
        self.stoi = {ch: i for i, ch in enumerate(self.itos)}

    def __len__(self):
        return len(self.itos)

    def encode(self, text):
        return [self.stoi.get(ch, 0) for ch in text]

    def decode(self, ids):
        return "".join(self.itos[i] for i in ids)


def make_corpus(vocab, n_chars, generator):
    """Random 'words' drawn from a small lexicon, separated by spaces/punctuation."""
    lexicon = ["the", "cat", "sat", "on", "a", "mat", "dog", "ran", "far", "and", "so", "it"]
    pieces = []
    total = 0
    while total < n_chars:
        w = lexicon[int(torch.randint(len(lexicon), (1,), generator=generator))]
        sep = " " if torch.rand(1, generator=generator).item() < 0.8 else ". "
        pieces.append(w + sep)
        total += len(w) + len(sep)
    text = "".join(pieces)[:n_chars]
    return torch.tensor(vocab.encode(text), dtype=torch.long)


def batches(corpus, batch_size, seq_len, generator):
    max_start = corpus.numel() - seq_len - 1
    while True:
        starts = torch.randint(max_start, (batch_size,), generator=generator)
        x = torch.stack([corpus[s:s + seq_len] for s in starts.tolist()])
        y = torch.stack([corpus[s + 1:s + seq_len + 1] for s in starts.tolist()])
        yield x, y
