import type { ReactNode } from 'react';
import { Button, Space, Tooltip, type ButtonProps } from 'antd';
import { usePermission, type PermissionRequirement } from '../../lib/permission';

/** Button item (text, btnClass, btnType, disabled, icon, iconHoverText), plus its permission. */
export interface ButtonItem {
  key: string;
  text?: ReactNode;
  btnClass?: string;
  btnType?: ButtonProps['type'];
  danger?: boolean;
  disabled?: boolean;
  loading?: boolean;
  icon?: ReactNode;
  /** Tooltip of an icon-only button; also its accessible name. */
  iconHoverText?: string;
  /** Hidden unless the user holds one of these codes / roles. */
  permission?: PermissionRequirement;
  onClick?(): void;
}

/** A row of buttons; those the user may not use are left out (docs/rules/screens.md, "Permission directive"). */
export function ButtonGroup({ items, size }: { items: ButtonItem[]; size?: ButtonProps['size'] }) {
  const can = usePermission();
  const visible = items.filter((item) => can(item.permission));
  if (visible.length === 0) return null;
  return (
    <Space wrap size={8} className="kit-button-group">
      {visible.map((item) => {
        const button = (
          <Button
            key={item.key}
            className={item.btnClass}
            type={item.btnType ?? 'default'}
            danger={item.danger ?? false}
            disabled={item.disabled ?? false}
            loading={item.loading ?? false}
            icon={item.icon}
            size={size}
            aria-label={item.text ? undefined : item.iconHoverText}
            onClick={item.onClick}
          >
            {item.text}
          </Button>
        );
        return item.iconHoverText ? (
          <Tooltip key={item.key} title={item.iconHoverText}>
            {button}
          </Tooltip>
        ) : (
          button
        );
      })}
    </Space>
  );
}
