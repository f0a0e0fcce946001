import torch

TOP = 0x7FFFFFFFFFFFFFFF  # clear_top: a negative h + 2^63 is h with its sign bit cleared


def _mix64(k):
    h1 = (k * -7046029254386353131 + 1442695040888963407) & TOP
    h2 = (((h1 >> 31) + (h1 & 0x7FFFFFFF)) * -4658895280553007687) & TOP
    h3 = (((h2 >> 33) + h2) * 6364136223846793005 + 1) & TOP
    return h3 >> 16  # all shifted values are >= 0: shifts are the program's divisions


def torch_twin(nbuck, keys):
    bucket = torch.fmod(_mix64(keys), nbuck)
    _, which, count = torch.unique(bucket, return_inverse=True, return_counts=True)
    return count[which].to(torch.int32)
