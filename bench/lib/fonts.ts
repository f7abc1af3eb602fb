/**
 * Runs in the page (self-contained: playwright serialises it): lays out text in the fonts the cards use
 * (CJK and Latin, regular and bold) and waits for them, so that no timing includes a font load.
 */
export async function warmFonts(): Promise<void> {
  const probe = document.createElement('div');
  probe.style.cssText = 'position:absolute;opacity:0;font:14px/1.4 system-ui,sans-serif';
  const bold = document.createElement('b');
  bold.textContent = '钢结构安装 Interior 装修';
  probe.append(bold, ' 水电维修上门 Delivery 0123456789 · 配送 餐饮 教育培训');
  document.body.append(probe);
  void probe.offsetWidth;
  await document.fonts.ready;
  probe.remove();
}
