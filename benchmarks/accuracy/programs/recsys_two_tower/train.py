"""Train a two-tower retrieval model on synthetic interactions, then evaluate recall@k."""

import random

import torch

from loss import in_batch_softmax_loss, temperature_schedule
from towers import ITEM_FEATURES, TwoTower

NUM_ITEMS = 200
NUM_GENRES = 20
NUM_DENSE = 3
BATCH_SIZE = 8
NUM_STEPS = 8
LR = 1e-2
USE_LOGQ = True
TOP_K = 10


class SyntheticCatalog:
    def __init__(self, num_items: int, seed: int = 0):
        g = torch.Generator().manual_seed(seed)
        self.genre = torch.randint(0, NUM_GENRES, (num_items,), generator=g)
        self.year_bucket = torch.randint(0, 10, (num_items,), generator=g)
        self.dense = torch.randn(num_items, NUM_DENSE, generator=g)
        popularity = 1.0 / torch.arange(1, num_items + 1).float() ** 0.8  # zipf-ish
        self.sampling_prob = popularity / popularity.sum()
        self.log_q = self.sampling_prob.log()
        self.by_genre = {k: (self.genre == k).nonzero().flatten().tolist() for k in range(NUM_GENRES)}

    def item_features(self, item_ids: torch.Tensor) -> dict[str, torch.Tensor]:
        return {
            "item_id": item_ids,
            "genre": self.genre[item_ids],
            "year_bucket": self.year_bucket[item_ids],
            "item_dense": self.dense[item_ids],
        }


def sample_user(catalog: SyntheticCatalog):
    genre = random.choice([k for k, v in catalog.by_genre.items() if len(v) >= 2])
    pool = catalog.by_genre[genre]
    hist = random.sample(pool, k=min(len(pool) - 1, random.randint(1, 5)))
    target = random.choice([i for i in pool if i not in hist])
    return hist, target, random.randrange(12), random.randrange(8)


def make_batch(catalog: SyntheticCatalog, batch_size: int) -> dict[str, torch.Tensor]:
    hist_ids, offsets, targets, countries, ages = [], [], [], [], []
    for _ in range(batch_size):
        hist, target, country, age = sample_user(catalog)
        offsets.append(len(hist_ids))
        hist_ids.extend(hist)
        targets.append(target)
        countries.append(country)
        ages.append(age)
    item_ids = torch.tensor(targets)
    batch = {
        "hist_ids": torch.tensor(hist_ids),
        "hist_offsets": torch.tensor(offsets),
        "user_country": torch.tensor(countries),
        "user_age_bucket": torch.tensor(ages),
        "item_log_q": catalog.log_q[item_ids],
    }
    batch.update(catalog.item_features(item_ids))
    return batch


@torch.compile
def train_step(batch: dict[str, torch.Tensor], model: TwoTower, optimizer: torch.optim.Optimizer,
               temperature: float, use_logq: bool = True) -> torch.Tensor:
    user_emb, item_emb = model(batch)
    loss = in_batch_softmax_loss(
        user_emb, item_emb, temperature,
        item_ids=batch["item_id"], item_log_q=batch["item_log_q"], logq_correction=use_logq,
    )
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    return loss.detach()


def evaluate(model: TwoTower, catalog: SyntheticCatalog, num_users: int = 16, k: int = TOP_K) -> float:
    model.eval()
    with torch.inference_mode():
        all_items = catalog.item_features(torch.arange(NUM_ITEMS))
        item_index = model.item_tower(all_items)  # (NUM_ITEMS, dim)
        batch = make_batch(catalog, num_users)
        user_emb = model.user_tower(batch)
        scores = user_emb @ item_index.t()
        # don't recommend what the user already watched
        seen_rows = torch.repeat_interleave(
            torch.arange(num_users), torch.diff(batch["hist_offsets"], append=torch.tensor([len(batch["hist_ids"])]))
        )
        scores[seen_rows, batch["hist_ids"]] = float("-inf")
        topk = scores.topk(k, dim=-1).indices
        hits = (topk == batch["item_id"].unsqueeze(1)).any(dim=1).float()
    return hits.mean().item()


def main():
    torch.manual_seed(0)
    random.seed(0)
    catalog = SyntheticCatalog(NUM_ITEMS)
    model = TwoTower(NUM_ITEMS, NUM_DENSE, dim=16)
    optimizer = torch.optim.Adagrad(model.parameters(), lr=LR)
    print("item features:", [f["name"] for f in ITEM_FEATURES])
    print(f"recall@{TOP_K} before: {evaluate(model, catalog):.3f}")

    for step in range(NUM_STEPS):
        model.train()
        temperature = temperature_schedule(step, NUM_STEPS)
        batch = make_batch(catalog, BATCH_SIZE)
        loss = train_step(batch, model, optimizer, temperature, use_logq=USE_LOGQ)
        print(f"step {step} temp {temperature:.3f} loss {loss.item():.4f}")

    print(f"recall@{TOP_K} after: {evaluate(model, catalog):.3f}")


if __name__ == "__main__":
    main()
