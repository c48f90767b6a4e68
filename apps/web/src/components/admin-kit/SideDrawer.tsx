import { Drawer, type DrawerProps } from 'antd';
import { DRAWER_WIDTH } from '@contest/shared';

export type SideDrawerProps = Omit<DrawerProps, 'mask' | 'maskClosable'>;

/** Side drawer (docs/rules/screens.md, "Shared widgets"): 1002 px wide by default, never closed by a backdrop click. */
export function SideDrawer({ size = DRAWER_WIDTH, destroyOnHidden = true, ...rest }: SideDrawerProps) {
  return <Drawer placement="right" size={size} destroyOnHidden={destroyOnHidden} mask={{ closable: false }} {...rest} />;
}
