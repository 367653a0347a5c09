# A task that uses ti.simt and that the GPU lowering leaves to the host (here
# a print of more than 64 values, which the device's print record does not
# hold) cannot run: the host has no blocks or barriers. A NotImplementedError
# at the loop saying why, raised where the PTX is made (no GPU needed).
import taichi as ti

ti.init(arch=ti.cuda)
x = ti.field(ti.i32, shape=64)


@ti.kernel
def wide():
    ti.loop_config(block_dim=64)
    for i in range(64):
        pad = ti.simt.block.SharedArray((64,), ti.i32)
        pad[i] = x[i]
        ti.simt.block.sync()
        if i == 0:
            print(pad[0], pad[1], pad[2], pad[3], pad[4], pad[5], pad[6], pad[7], pad[8], pad[9], pad[10], pad[11],
                  pad[12], pad[13], pad[14], pad[15], pad[16], pad[17], pad[18], pad[19], pad[20], pad[21], pad[22],
                  pad[23], pad[24], pad[25], pad[26], pad[27], pad[28], pad[29], pad[30], pad[31], pad[32], pad[33],
                  pad[34], pad[35], pad[36], pad[37], pad[38], pad[39], pad[40], pad[41], pad[42], pad[43], pad[44],
                  pad[45], pad[46], pad[47], pad[48], pad[49], pad[50], pad[51], pad[52], pad[53], pad[54], pad[55],
                  pad[56], pad[57], pad[58], pad[59], pad[60], pad[61], pad[62], pad[63], pad[0])


wide()
