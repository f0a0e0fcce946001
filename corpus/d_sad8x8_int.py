import torch


def torch_twin(oh, ow, img, tpl):
    # img: [oh + 7, ow + 7] int32, tpl: [8, 8] int32. For each template row u, the 8-wide
    # windows of image rows u .. u + oh - 1 (unfold along the columns: [oh, ow, 8]).
    sad = torch.zeros((oh, ow), dtype=torch.int32, device=img.device)
    for u in range(8):  # the template's rows
        win = img[u:u + oh].unfold(1, 8, 1)[:, :ow]
        sad += (win - tpl[u]).abs().sum(-1, dtype=torch.int32)
    return sad
